CREATE TABLE IF NOT EXISTS "sponsor_gas_policy_grants" (
	"policy_id" text NOT NULL,
	"day" date NOT NULL,
	"granted_wei" numeric(78, 0) NOT NULL,
	"grants" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sponsor_gas_policy_grants_policy_id_day_pk" PRIMARY KEY("policy_id","day")
);
