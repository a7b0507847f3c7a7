CREATE TABLE IF NOT EXISTS "x402_settlements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"network" text NOT NULL,
	"chain_id" integer NOT NULL,
	"asset" text NOT NULL,
	"payer" text NOT NULL,
	"nonce" text NOT NULL,
	"data" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"tx_hash" text,
	"raw_tx" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "x402_settlements_authorization_idx" ON "x402_settlements" USING btree ("network","asset","payer","nonce") WHERE "x402_settlements"."state" <> 'failed';--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "x402_settlements_chain_state_idx" ON "x402_settlements" USING btree ("chain_id","state");