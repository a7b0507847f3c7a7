-- The wallet a signup reserves for its code (docs/decisions/0019). Idempotent like 0000.
CREATE TABLE IF NOT EXISTS "signer_wallet_reservations" (
	"otp_id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"sealed_mnemonic" text NOT NULL,
	"evm_address" text NOT NULL,
	"solana_address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DO $$ BEGIN
 ALTER TABLE "signer_wallet_reservations" ADD CONSTRAINT "signer_wallet_reservations_otp_id_signer_otps_id_fk" FOREIGN KEY ("otp_id") REFERENCES "public"."signer_otps"("id") ON DELETE cascade ON UPDATE no action;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
