CREATE TABLE "relayer_cursors" (
	"chain_id" integer PRIMARY KEY NOT NULL,
	"last_block" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "relayer_deposits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_chain_id" integer NOT NULL,
	"intent_id" text NOT NULL,
	"payer" text NOT NULL,
	"escrow_token" text NOT NULL,
	"escrow_amount" text NOT NULL,
	"destination_chain_id" integer NOT NULL,
	"destination_token" text NOT NULL,
	"min_amount_out" text NOT NULL,
	"receiver" text NOT NULL,
	"fill_deadline" bigint NOT NULL,
	"deposit_tx_hash" text NOT NULL,
	"deposit_block" bigint NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"fill_tx_hash" text,
	"filled_amount" text,
	"settle_tx_hash" text,
	"refund_tx_hash" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"filled_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"refunded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "route_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"link_id" uuid,
	"from_chain_id" integer NOT NULL,
	"to_chain_id" integer NOT NULL,
	"from_token" text NOT NULL,
	"to_token" text NOT NULL,
	"from_amount" text NOT NULL,
	"to_amount" text NOT NULL,
	"to_amount_min" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"slippage" double precision NOT NULL,
	"transaction_request" jsonb NOT NULL,
	"actions" jsonb NOT NULL,
	"provider_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"estimated_duration_ms" integer DEFAULT 0 NOT NULL,
	"source_tx_hash" text,
	"status_raw" text,
	"status" text,
	"dest_tx_hash" text,
	"to_amount_wei" text,
	"error_message" text,
	"route_status" jsonb,
	"gas_status" text,
	"is_gmp" boolean DEFAULT false NOT NULL,
	"axelar_url" text,
	"is_refunded" boolean DEFAULT false NOT NULL,
	"next_check_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "route_intents" ADD CONSTRAINT "route_intents_link_id_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."links"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "relayer_deposits_source_intent_idx" ON "relayer_deposits" USING btree ("source_chain_id","intent_id");--> statement-breakpoint
CREATE INDEX "relayer_deposits_intent_idx" ON "relayer_deposits" USING btree ("intent_id");--> statement-breakpoint
CREATE INDEX "relayer_deposits_state_next_idx" ON "relayer_deposits" USING btree ("state","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "route_intents_source_tx_idx" ON "route_intents" USING btree ("from_chain_id","source_tx_hash");--> statement-breakpoint
CREATE INDEX "route_intents_from_address_updated_idx" ON "route_intents" USING btree ("from_address","updated_at");--> statement-breakpoint
CREATE INDEX "route_intents_next_check_idx" ON "route_intents" USING btree ("next_check_at");