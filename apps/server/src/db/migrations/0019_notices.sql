CREATE TABLE IF NOT EXISTS "payment_digests" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"state" text DEFAULT 'sending' NOT NULL,
	"payments" integer DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "payment_digests_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "links" ADD COLUMN IF NOT EXISTS "notify_payments" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "payment_digest" text DEFAULT 'off' NOT NULL;--> statement-breakpoint
DO $$ BEGIN
	ALTER TABLE "payment_digests" ADD CONSTRAINT "payment_digests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "payment_digests_due_idx" ON "payment_digests" USING btree ("state","next_attempt_at");
