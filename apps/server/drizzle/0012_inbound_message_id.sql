ALTER TABLE "inbound_sms" ADD COLUMN "gateway" text;--> statement-breakpoint
ALTER TABLE "inbound_sms" ADD COLUMN "gateway_message_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_sms_gateway_message_unique" ON "inbound_sms" USING btree ("gateway","from_phone","gateway_message_id");