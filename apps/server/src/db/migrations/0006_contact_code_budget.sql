CREATE TABLE "signer_code_failures" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "signer_code_failures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel" text NOT NULL,
	"contact" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signer_contact_locks" (
	"channel" text NOT NULL,
	"contact" text NOT NULL,
	"locked_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone NOT NULL,
	CONSTRAINT "signer_contact_locks_channel_contact_pk" PRIMARY KEY("channel","contact")
);
--> statement-breakpoint
ALTER TABLE "signer_otps" ADD COLUMN "phone_prefix" text;--> statement-breakpoint
ALTER TABLE "signer_otps" ADD COLUMN "magic_link_hash" text;--> statement-breakpoint
ALTER TABLE "signer_otps" ADD COLUMN "superseded_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "signer_code_failures_contact_idx" ON "signer_code_failures" USING btree ("channel","contact","created_at");--> statement-breakpoint
CREATE INDEX "signer_otps_phone_prefix_idx" ON "signer_otps" USING btree ("phone_prefix","created_at");--> statement-breakpoint
ALTER TABLE "signer_otps" DROP COLUMN "created_account";