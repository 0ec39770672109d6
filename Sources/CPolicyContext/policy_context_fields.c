#include "policy_context_fields.h"

#define POLICY_CONTEXT_FIELD_ENTRY(id, field_name, field_kind, field_presence) \
    {.name = field_name, .kind = POLICY_CONTEXT_KIND_##field_kind, .presence = POLICY_CONTEXT_PRESENCE_##field_presence},

static const policy_context_field ctx_fields[] = {POLICY_CONTEXT_CTX_FIELDS(POLICY_CONTEXT_FIELD_ENTRY)};
static const policy_context_field customer_fields[] = {POLICY_CONTEXT_CUSTOMER_FIELDS(POLICY_CONTEXT_FIELD_ENTRY)};
static const policy_context_field entry_fields[] = {POLICY_CONTEXT_ENTRY_FIELDS(POLICY_CONTEXT_FIELD_ENTRY)};

const policy_context_table policy_context_ctx_table = {"ctx", ctx_fields, POLICY_CONTEXT_CTX_FIELD_COUNT};
const policy_context_table policy_context_customer_table = {"ctx.customer", customer_fields, POLICY_CONTEXT_CUSTOMER_FIELD_COUNT};
const policy_context_table policy_context_entry_table = {"a subscription entry of ctx.customer.subscriptions", entry_fields,
                                                         POLICY_CONTEXT_ENTRY_FIELD_COUNT};
