-- Social-login returns (docs/signer.md#social-login): the account-linking identity kept under its
-- e-mail code, and the key each session was encrypted to. Idempotent like 0000.
CREATE TABLE IF NOT EXISTS "signer_oauth_links" (
	"otp_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"provider_id" text NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"email" text,
	"target_public_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signer_session_keys" ADD COLUMN IF NOT EXISTS "target_public_key" text;--> statement-breakpoint
DO $$ BEGIN
 ALTER TABLE "signer_oauth_links" ADD CONSTRAINT "signer_oauth_links_otp_id_signer_otps_id_fk" FOREIGN KEY ("otp_id") REFERENCES "public"."signer_otps"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
--> statement-breakpoint
DO $$ BEGIN
 ALTER TABLE "signer_oauth_links" ADD CONSTRAINT "signer_oauth_links_user_id_signer_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."signer_users"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
