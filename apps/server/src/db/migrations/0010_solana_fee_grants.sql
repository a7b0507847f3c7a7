CREATE TABLE "solana_fee_grants" (
	"user_id" uuid NOT NULL,
	"policy_id" text NOT NULL,
	"day" date NOT NULL,
	"granted_lamports" numeric(20, 0) NOT NULL,
	"grants" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "solana_fee_grants_user_id_policy_id_day_pk" PRIMARY KEY("user_id","policy_id","day")
);
--> statement-breakpoint
ALTER TABLE "solana_fee_grants" ADD CONSTRAINT "solana_fee_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;