// Launch webhooks: partner subscriptions and one log row per delivery attempt.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE webhook_subscriptions (
      id uuid PRIMARY KEY,
      partner_id bigint NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
      url text NOT NULL CHECK (length(url) <= 2048),
      events text[] NOT NULL,
      secret text NOT NULL,
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
      failing_since timestamptz,
      paused_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX webhook_subscriptions_partner ON webhook_subscriptions (partner_id, created_at);
    CREATE INDEX webhook_subscriptions_active ON webhook_subscriptions (status) WHERE status = 'active';

    CREATE TABLE webhook_deliveries (
      id bigserial PRIMARY KEY,
      subscription_id uuid NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
      delivery_id text NOT NULL,
      event text NOT NULL,
      attempt int NOT NULL,
      status text NOT NULL CHECK (status IN ('succeeded', 'failed')),
      response_code int,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (delivery_id, attempt)
    );
    CREATE INDEX webhook_deliveries_subscription ON webhook_deliveries (subscription_id, created_at);
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE webhook_deliveries, webhook_subscriptions`.execute(db);
}
