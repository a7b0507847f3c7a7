CREATE TABLE IF NOT EXISTS "deposit_cursors" (
	"chain_id" integer PRIMARY KEY NOT NULL,
	"last_block" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "deposit_transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"deposit_id" uuid NOT NULL,
	"chain_id" integer NOT NULL,
	"source_key" text NOT NULL,
	"token" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"sender" text,
	"tx_hash" text,
	"state" text DEFAULT 'detected' NOT NULL,
	"intent_id" text,
	"action_tx_hash" text,
	"action_raw_tx" text,
	"gas_cost_wei" numeric(78, 0),
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "deposits" (
	"id" uuid PRIMARY KEY NOT NULL,
	"link_id" uuid NOT NULL,
	"invoice_id" text,
	"address" text NOT NULL,
	"refund_address" text,
	"amount_units" numeric(78, 0),
	"terms" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DO $$ BEGIN
	ALTER TABLE "deposit_transfers" ADD CONSTRAINT "deposit_transfers_deposit_id_deposits_id_fk" FOREIGN KEY ("deposit_id") REFERENCES "public"."deposits"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION
	WHEN duplicate_object THEN null;
END $$;--> statement-breakpoint
DO $$ BEGIN
	ALTER TABLE "deposits" ADD CONSTRAINT "deposits_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION
	WHEN duplicate_object THEN null;
END $$;--> statement-breakpoint
DO $$ BEGIN
	ALTER TABLE "deposits" ADD CONSTRAINT "deposits_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION
	WHEN duplicate_object THEN null;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "deposit_transfers_source_idx" ON "deposit_transfers" USING btree ("chain_id","source_key");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "deposit_transfers_deposit_idx" ON "deposit_transfers" USING btree ("deposit_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "deposit_transfers_state_next_idx" ON "deposit_transfers" USING btree ("state","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "deposits_address_idx" ON "deposits" USING btree ("address");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "deposits_expires_at_idx" ON "deposits" USING btree ("expires_at");