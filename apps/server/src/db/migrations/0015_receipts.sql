CREATE TABLE IF NOT EXISTS "receipt_emails" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"intent_id" text NOT NULL,
	"role" text NOT NULL,
	"email" text,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"requested_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
DO $$ BEGIN
	ALTER TABLE "receipt_emails" ADD CONSTRAINT "receipt_emails_intent_id_route_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."route_intents"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "receipt_emails_payee_idx" ON "receipt_emails" USING btree ("intent_id") WHERE role = 'payee';--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "receipt_emails_intent_email_idx" ON "receipt_emails" USING btree ("intent_id","email");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "receipt_emails_due_idx" ON "receipt_emails" USING btree ("state","next_attempt_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "receipt_emails_email_created_idx" ON "receipt_emails" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "route_intents_final_success_idx" ON "route_intents" USING btree ("final_at") WHERE status = 'success';