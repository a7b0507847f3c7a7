-- The signer's tables, its own migration set since they moved out of the app server's
-- (docs/decisions/0016). Every statement is idempotent: a database migrated before the move
-- already holds these tables (the server's 0002_signer and 0006_contact_code_budget made them,
-- to this same shape), and must migrate cleanly.
CREATE TABLE IF NOT EXISTS "signer_activities" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"request" jsonb NOT NULL,
	"result" jsonb,
	"body_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "signer_auth_methods" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"identifier" text NOT NULL,
	"data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signer_auth_methods_type_identifier_unique" UNIQUE("type","identifier")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "signer_code_failures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "signer_code_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel" text NOT NULL,
	"contact" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "signer_contact_locks" (
	"channel" text NOT NULL,
	"contact" text NOT NULL,
	"locked_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone NOT NULL,
	CONSTRAINT "signer_contact_locks_channel_contact_pk" PRIMARY KEY("channel","contact")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "signer_organizations" (
	"id" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "signer_otps" (
	"id" uuid PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"channel" text NOT NULL,
	"contact" text NOT NULL,
	"phone_prefix" text,
	"organization_id" text,
	"code_hash" text NOT NULL,
	"magic_link_hash" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"target_public_key" text,
	"expiration_seconds" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"superseded_at" timestamp with time zone,
	"token_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "signer_service_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"sealed_secret" text NOT NULL,
	"public_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "signer_session_keys" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "signer_session_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"public_key" text NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "signer_session_keys_public_key_unique" UNIQUE("public_key")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "signer_stamp_replays" (
	"body_hash" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "signer_users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"email" text,
	"phone" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signer_users_organization_id_unique" UNIQUE("organization_id"),
	CONSTRAINT "signer_users_email_unique" UNIQUE("email"),
	CONSTRAINT "signer_users_phone_unique" UNIQUE("phone")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "signer_wallets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"sealed_mnemonic" text NOT NULL,
	"evm_address" text NOT NULL,
	"solana_address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signer_wallets_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "signer_wallets_evm_address_unique" UNIQUE("evm_address"),
	CONSTRAINT "signer_wallets_solana_address_unique" UNIQUE("solana_address")
);
--> statement-breakpoint
DO $$ BEGIN
 ALTER TABLE "signer_activities" ADD CONSTRAINT "signer_activities_organization_id_signer_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."signer_organizations"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
 ALTER TABLE "signer_activities" ADD CONSTRAINT "signer_activities_user_id_signer_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."signer_users"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
 ALTER TABLE "signer_auth_methods" ADD CONSTRAINT "signer_auth_methods_user_id_signer_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."signer_users"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
 ALTER TABLE "signer_session_keys" ADD CONSTRAINT "signer_session_keys_user_id_signer_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."signer_users"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
 ALTER TABLE "signer_users" ADD CONSTRAINT "signer_users_organization_id_signer_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."signer_organizations"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
DO $$ BEGIN
 ALTER TABLE "signer_wallets" ADD CONSTRAINT "signer_wallets_user_id_signer_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."signer_users"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "signer_activities_organization_id_idx" ON "signer_activities" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "signer_auth_methods_user_id_idx" ON "signer_auth_methods" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "signer_code_failures_contact_idx" ON "signer_code_failures" USING btree ("channel","contact","created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "signer_otps_contact_idx" ON "signer_otps" USING btree ("channel","contact","created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "signer_otps_phone_prefix_idx" ON "signer_otps" USING btree ("phone_prefix","created_at");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "signer_session_keys_user_id_idx" ON "signer_session_keys" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "signer_stamp_replays_expires_at_idx" ON "signer_stamp_replays" USING btree ("expires_at");