-- Codes that cannot lock anyone out or be ground down (docs/decisions/0022): who asked for each
-- code, and the wrong authenticator codes per user. Idempotent like 0000.
CREATE TABLE IF NOT EXISTS "signer_totp_failures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "signer_totp_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"challenge_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signer_otps" ADD COLUMN IF NOT EXISTS "requester" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "signer_otps" ADD COLUMN IF NOT EXISTS "is_reserved" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "signer_totp_failures_user_idx" ON "signer_totp_failures" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "signer_totp_failures_challenge_idx" ON "signer_totp_failures" USING btree ("challenge_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "signer_otps_requester_idx" ON "signer_otps" USING btree ("channel","contact","requester","created_at");
