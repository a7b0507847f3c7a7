-- PayRouter now keys escrows and fills by the whole order (docs/decisions/0010): deposits and cursors
-- of the former contract mean nothing to the new one, so the relayer starts over.
DELETE FROM "relayer_deposits";--> statement-breakpoint
DELETE FROM "relayer_cursors";--> statement-breakpoint
CREATE TABLE "route_intent_receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"intent_id" text NOT NULL,
	"tx_hash" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "relayer_deposits_source_intent_idx";--> statement-breakpoint
DROP INDEX "route_intents_source_tx_idx";--> statement-breakpoint
ALTER TABLE "relayer_cursors" ADD COLUMN "last_block_hash" text;--> statement-breakpoint
ALTER TABLE "relayer_deposits" ADD COLUMN "order_key" text NOT NULL;--> statement-breakpoint
ALTER TABLE "relayer_deposits" ADD COLUMN "deposit_block_hash" text;--> statement-breakpoint
ALTER TABLE "relayer_deposits" ADD COLUMN "destination_from_block" bigint;--> statement-breakpoint
ALTER TABLE "route_intents" ADD COLUMN "source_block_number" bigint;--> statement-breakpoint
ALTER TABLE "route_intents" ADD COLUMN "source_block_hash" text;--> statement-breakpoint
ALTER TABLE "route_intents" ADD COLUMN "order_key" text;--> statement-breakpoint
ALTER TABLE "route_intents" ADD COLUMN "dest_block_number" bigint;--> statement-breakpoint
ALTER TABLE "route_intents" ADD COLUMN "dest_block_hash" text;--> statement-breakpoint
ALTER TABLE "route_intents" ADD COLUMN "final_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "route_intent_receipts" ADD CONSTRAINT "route_intent_receipts_intent_id_route_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."route_intents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "route_intent_receipts_intent_tx_idx" ON "route_intent_receipts" USING btree ("intent_id","tx_hash");--> statement-breakpoint
CREATE INDEX "route_intent_receipts_state_idx" ON "route_intent_receipts" USING btree ("state","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "relayer_deposits_source_order_idx" ON "relayer_deposits" USING btree ("source_chain_id","order_key");--> statement-breakpoint
CREATE UNIQUE INDEX "relayer_deposits_one_fill_per_intent_idx" ON "relayer_deposits" USING btree ("intent_id") WHERE state IN ('filling', 'filled', 'settled');--> statement-breakpoint
CREATE INDEX "route_intents_source_tx_idx" ON "route_intents" USING btree ("from_chain_id","source_tx_hash");