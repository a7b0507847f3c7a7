CREATE TABLE IF NOT EXISTS "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"link_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"chain_id" integer NOT NULL,
	"token_address" text NOT NULL,
	"token_symbol" text NOT NULL,
	"token_decimals" integer NOT NULL,
	"receiver_address" text NOT NULL,
	"amount" text NOT NULL,
	"amount_units" numeric(78, 0) NOT NULL,
	"amount_paid_units" numeric(78, 0) DEFAULT '0' NOT NULL,
	"tolerance_bps" integer DEFAULT 0 NOT NULL,
	"reference" text,
	"memo" text,
	"state" text DEFAULT 'open' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"monitor_until" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN IF NOT EXISTS "amount" text;--> statement-breakpoint
ALTER TABLE "route_intents" ADD COLUMN IF NOT EXISTS "invoice_id" text;--> statement-breakpoint
DO $$ BEGIN
	ALTER TABLE "invoices" ADD CONSTRAINT "invoices_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
	ALTER TABLE "invoices" ADD CONSTRAINT "invoices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_user_id_created_at_idx" ON "invoices" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_link_id_created_at_idx" ON "invoices" USING btree ("link_id","created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_state_expires_at_idx" ON "invoices" USING btree ("state","expires_at");--> statement-breakpoint
DO $$ BEGIN
	ALTER TABLE "route_intents" ADD CONSTRAINT "route_intents_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE set null ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "route_intents_invoice_id_idx" ON "route_intents" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "route_intents_link_id_created_at_idx" ON "route_intents" USING btree ("link_id","created_at");