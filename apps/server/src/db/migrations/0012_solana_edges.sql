CREATE TABLE IF NOT EXISTS "solana_fee_policy_grants" (
	"policy_id" text NOT NULL,
	"day" date NOT NULL,
	"granted_lamports" numeric(20, 0) NOT NULL,
	"grants" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "solana_fee_policy_grants_policy_id_day_pk" PRIMARY KEY("policy_id","day")
);
