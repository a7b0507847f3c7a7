CREATE TABLE "links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"link_type" text DEFAULT 'Payment Link' NOT NULL,
	"alias" text NOT NULL,
	"alias_slug" text NOT NULL,
	"receiver_address" text NOT NULL,
	"chain" text DEFAULT 'base' NOT NULL,
	"chain_id" integer DEFAULT 8453 NOT NULL,
	"token_name" text NOT NULL,
	"token_address" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"account_type" text DEFAULT 'personal' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"favorite" boolean DEFAULT false NOT NULL,
	"settings" text DEFAULT '{}' NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "username" text;--> statement-breakpoint
ALTER TABLE "links" ADD CONSTRAINT "links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "links_alias_slug_lower_idx" ON "links" USING btree (lower("alias_slug"));--> statement-breakpoint
CREATE UNIQUE INDEX "links_user_id_idempotency_key_idx" ON "links" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "links_user_id_created_at_idx" ON "links" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_idx" ON "users" USING btree (lower("username"));