ALTER TABLE "deposit_cursors" ADD COLUMN IF NOT EXISTS "last_block_hash" text;--> statement-breakpoint
ALTER TABLE "deposit_transfers" ADD COLUMN IF NOT EXISTS "block_number" bigint;--> statement-breakpoint
ALTER TABLE "deposit_transfers" ADD COLUMN IF NOT EXISTS "block_hash" text;--> statement-breakpoint
ALTER TABLE "deposit_transfers" ADD COLUMN IF NOT EXISTS "refund_to" text;--> statement-breakpoint
ALTER TABLE "deposit_transfers" ADD COLUMN IF NOT EXISTS "refund_to_signed_until" timestamp with time zone;