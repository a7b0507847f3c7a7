CREATE TABLE IF NOT EXISTS "invoice_payments" (
	"invoice_id" text NOT NULL,
	"intent_id" text NOT NULL,
	"amount_units" numeric(78, 0) NOT NULL,
	"arrived_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_payments_invoice_id_intent_id_pk" PRIMARY KEY("invoice_id","intent_id")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "invoice_transitions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" text NOT NULL,
	"from_state" text NOT NULL,
	"to_state" text NOT NULL,
	"intent_id" text,
	"amount_paid_units" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DO $$ BEGIN
	ALTER TABLE "invoice_payments" ADD CONSTRAINT "invoice_payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
	ALTER TABLE "invoice_transitions" ADD CONSTRAINT "invoice_transitions_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "invoice_payments_intent_id_idx" ON "invoice_payments" USING btree ("intent_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoice_transitions_invoice_id_created_at_idx" ON "invoice_transitions" USING btree ("invoice_id","created_at");