CREATE TABLE IF NOT EXISTS "payment_daily_totals" (
	"link_id" uuid NOT NULL,
	"to_chain_id" integer NOT NULL,
	"to_token" text NOT NULL,
	"day" date NOT NULL,
	"amount" numeric(78, 0) DEFAULT '0' NOT NULL,
	"payments" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "payment_daily_totals_link_id_to_chain_id_to_token_day_pk" PRIMARY KEY("link_id","to_chain_id","to_token","day")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "route_intents_paid_created_at_id_idx" ON "route_intents" USING btree ("created_at","id") WHERE "route_intents"."source_tx_hash" is not null and "route_intents"."status" is not null;--> statement-breakpoint
-- Written by hand (drizzle-kit writes no triggers): payment_daily_totals follows every change of a
-- route intent. A payment counts while it is a final success with a verified credit, paid into a
-- link (services/payments/history/sum-payment-totals.ts counts the same rows from route_intents).
CREATE OR REPLACE FUNCTION "payment_daily_totals_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.link_id IS NOT NULL AND OLD.status = 'success'
		AND OLD.final_at IS NOT NULL AND OLD.source_tx_hash IS NOT NULL AND OLD.to_amount_wei ~ '^[0-9]{1,78}$' THEN
		UPDATE "payment_daily_totals"
		SET "amount" = "amount" - OLD.to_amount_wei::numeric, "payments" = "payments" - 1
		WHERE "link_id" = OLD.link_id AND "to_chain_id" = OLD.to_chain_id AND "to_token" = OLD.to_token
			AND "day" = (OLD.created_at AT TIME ZONE 'UTC')::date;
	END IF;
	IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.link_id IS NOT NULL AND NEW.status = 'success'
		AND NEW.final_at IS NOT NULL AND NEW.source_tx_hash IS NOT NULL AND NEW.to_amount_wei ~ '^[0-9]{1,78}$' THEN
		INSERT INTO "payment_daily_totals" ("link_id", "to_chain_id", "to_token", "day", "amount", "payments")
		VALUES (NEW.link_id, NEW.to_chain_id, NEW.to_token, (NEW.created_at AT TIME ZONE 'UTC')::date, NEW.to_amount_wei::numeric, 1)
		ON CONFLICT ("link_id", "to_chain_id", "to_token", "day") DO UPDATE
		SET "amount" = "payment_daily_totals"."amount" + EXCLUDED."amount", "payments" = "payment_daily_totals"."payments" + 1;
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
-- The payments made before this migration, once (a rerun after a crash finds them counted).
INSERT INTO "payment_daily_totals" ("link_id", "to_chain_id", "to_token", "day", "amount", "payments")
SELECT "link_id", "to_chain_id", "to_token", ("created_at" AT TIME ZONE 'UTC')::date, sum("to_amount_wei"::numeric), count(*)
FROM "route_intents"
WHERE "link_id" IS NOT NULL AND "status" = 'success' AND "final_at" IS NOT NULL AND "source_tx_hash" IS NOT NULL
	AND "to_amount_wei" ~ '^[0-9]{1,78}$'
GROUP BY 1, 2, 3, 4
ON CONFLICT DO NOTHING;--> statement-breakpoint
DROP TRIGGER IF EXISTS "route_intents_payment_daily_totals" ON "route_intents";--> statement-breakpoint
CREATE TRIGGER "route_intents_payment_daily_totals"
AFTER INSERT OR DELETE OR UPDATE OF "link_id", "status", "final_at", "source_tx_hash", "to_amount_wei", "to_chain_id", "to_token", "created_at"
ON "route_intents" FOR EACH ROW EXECUTE FUNCTION "payment_daily_totals_follow"();
