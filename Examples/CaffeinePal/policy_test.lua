-- The Caffeine Pal story, hook by hook. Run with: storerules test Examples/CaffeinePal

local PRO = "8FC5B912"

local RECIPES = {
    "recipe.affogato", "recipe.americano", "recipe.cappuccino", "recipe.cortado",
    "recipe.espresso", "recipe.flat_white", "recipe.latte", "recipe.mocha",
}

-- A coffee lover whose status has loaded, owning `entitlements`, with Pro in `state` (or not).
local function coffee_lover(entitlements, state)
    local subscriptions = {}
    if state ~= nil then
        subscriptions[PRO] = { product_id = "pro.annual", state = state }
    end
    return context{ customer = {
        id = "coffee-lover-1", status_known = true,
        entitlements = entitlements or {}, subscriptions = subscriptions,
    } }
end

-- The catalog

function test_pro_is_an_annual_plan_with_a_free_week()
    local pro = product("pro.annual")
    expect_eq("auto_renewable", pro.type)
    expect_eq({ unit = "year", value = 1 }, pro.subscription.period)
    expect_eq("free_trial", pro.subscription.introductory_offer.payment_mode)
    expect_eq({ unit = "week", value = 1 }, pro.subscription.introductory_offer.period)
    expect_eq({ "pro.annual" }, group(PRO).products)
end

function test_tips_are_consumables_and_recipes_non_consumables()
    expect_eq("consumable", product("tip.small").type)
    expect_eq("$0.99", product("tip.small").display_price)
    expect_eq("non_consumable", product("recipe.latte").type)
    expect_eq("4.99", product("recipe.latte").price)
end

-- show_merchandising

function test_nothing_is_advertised_while_the_status_is_unknown()
    local unknown = context{}
    expect_false(policy.show_merchandising(unknown, "recipes"))
    expect_false(policy.show_merchandising(unknown, "tip_jar"))
end

function test_pro_members_see_no_recipe_offers_but_the_tip_jar()
    expect_true(policy.show_merchandising(coffee_lover(), "recipes"))
    expect_false(policy.show_merchandising(coffee_lover({}, "subscribed"), "recipes"))
    expect_true(policy.show_merchandising(coffee_lover({}, "subscribed"), "tip_jar"))
end

function test_billing_retry_brings_the_offers_back()
    expect_false(policy.show_merchandising(coffee_lover({}, "in_grace_period"), "recipes"))
    expect_true(policy.show_merchandising(coffee_lover({}, "in_billing_retry"), "recipes"))
end

-- visible_relationships and plan_icon

function test_members_see_their_plan_and_others_every_plan()
    expect_eq({ "all" }, policy.visible_relationships(coffee_lover(), group(PRO)))
    expect_eq({ "current" }, policy.visible_relationships(coffee_lover({}, "subscribed"), group(PRO)))
    expect_eq({ "all" }, policy.visible_relationships(coffee_lover({}, "expired"), group(PRO)))
end

function test_pro_has_a_cup_icon()
    expect_eq("cup.and.saucer.fill", policy.plan_icon(coffee_lover(), product("pro.annual")))
    expect_nil(policy.plan_icon(coffee_lover(), product("recipe.latte")))
end

-- grant

function test_a_tip_fills_the_tip_jar_and_earns_a_thank_you()
    expect_eq({ { item = "tip_jar_cups", amount = 1 }, { item = "thank_you_card", amount = 1 } },
        policy.grant(coffee_lover(), transaction{ product_id = "tip.small" }, product("tip.small")))
    expect_eq({ { item = "tip_jar_cups", amount = 20 }, { item = "thank_you_card", amount = 1 } },
        policy.grant(coffee_lover(), transaction{ product_id = "tip.large", quantity = 2 }, product("tip.large")))
end

function test_recipes_and_pro_grant_nothing()
    expect_eq({}, policy.grant(coffee_lover(), transaction{ product_id = "recipe.mocha" }, product("recipe.mocha")))
    expect_eq({}, policy.grant(coffee_lover(), transaction{ product_id = "pro.annual" }, product("pro.annual")))
end

function test_a_tip_without_a_rule_fails_instead_of_granting_nothing()
    expect_error(function()
        policy.grant(coffee_lover(), transaction{ product_id = "tip.huge", type = "Consumable" },
            { id = "tip.huge", type = "consumable" })
    end, "no grant rule for the consumable tip.huge")
end

-- product_style and store_buttons

function test_pro_leads_the_shop()
    expect_eq("large", policy.product_style(coffee_lover(), product("pro.annual")))
    expect_eq("regular", policy.product_style(coffee_lover(), product("recipe.espresso")))
    expect_eq("compact", policy.product_style(coffee_lover(), product("tip.medium")))
end

function test_restore_purchases_is_always_visible()
    expect_eq({ cancellation = "automatic", restore_purchases = "visible" }, policy.store_buttons(coffee_lover(), "store"))
    expect_eq({ cancellation = "automatic", restore_purchases = "visible", redeem_code = "hidden", policies = "visible" },
        policy.store_buttons(coffee_lover(), "subscription_store"))
end

-- features

function test_each_owned_recipe_unlocks_that_recipe()
    expect_eq({}, policy.features(coffee_lover()))
    expect_eq({ "recipe.latte", "recipe.mocha" }, policy.features(coffee_lover({ "recipe.mocha", "recipe.latte" })))
end

function test_pro_unlocks_every_recipe_in_the_catalog()
    local expected = { "pro" }
    for _, recipe in ipairs(RECIPES) do expected[#expected + 1] = recipe end
    table.sort(expected)
    expect_eq(expected, policy.features(coffee_lover({}, "subscribed")))
    expect_eq(expected, policy.features(coffee_lover({ "recipe.latte" }, "in_grace_period")))
end

function test_pro_ends_with_billing_retry_but_owned_recipes_stay()
    expect_eq({ "recipe.latte" }, policy.features(coffee_lover({ "recipe.latte" }, "in_billing_retry")))
    expect_eq({}, policy.features(coffee_lover({}, "expired")))
end

-- consumption: refund requests

local function bought(id, type)
    return transaction{ product_id = id, type = type or "Non-Consumable" }
end

function test_a_recipe_never_opened_is_refunded()
    local answer = decide("consumption", coffee_lover({ "recipe.latte" }), bought("recipe.latte"), { reason = "UNSATISFIED_WITH_PURCHASE" })
    expect_eq(0, answer.consumption_percentage)
    expect_eq("GRANT_FULL", answer.refund_preference)
end

function test_a_recipe_opened_is_used_and_its_refund_declined()
    local ctx = context{ customer = { id = "lover-1", status_known = true, entitlements = { "recipe.latte" },
                                      events = { ["viewed_recipe.latte"] = { count = 3 } } } }
    local answer = decide("consumption", ctx, bought("recipe.latte"), { reason = "UNSATISFIED_WITH_PURCHASE" })
    expect_eq(100000, answer.consumption_percentage)
    expect_eq("DECLINE", answer.refund_preference)
end

function test_a_recipe_the_ledger_never_granted_was_not_delivered_and_is_refunded()
    local tx = transaction{ product_id = "recipe.latte", type = "Non-Consumable", granted = false }
    local answer = decide("consumption", coffee_lover(), tx, { reason = "UNSATISFIED_WITH_PURCHASE" })
    expect_eq("UNDELIVERED_OTHER", answer.delivery_status)
    expect_eq("GRANT_FULL", answer.refund_preference)
end

function test_a_tip_is_fully_consumed_and_left_to_apple()
    local answer = decide("consumption", coffee_lover(), bought("tip.large", "Consumable"), { reason = "OTHER" })
    expect_eq(100000, answer.consumption_percentage)
    expect_eq(nil, answer.refund_preference)
end

function test_pro_bought_by_mistake_is_refunded_and_its_free_week_is_a_sample()
    local answer, how = decide("consumption", coffee_lover({}, "subscribed"), bought("pro.annual", "Auto-Renewable Subscription"),
        { reason = "UNINTENDED_PURCHASE" })
    expect_eq("policy", how.source)
    expect_eq("GRANT_FULL", answer.refund_preference)
    expect_true(answer.sample_content_provided)
end

-- winback_offer: a lapsed Pro subscriber

local function lapsed(paid_months)
    return context{ customer = { id = "coffee-lover-1", status_known = true, subscriptions = {
        [PRO] = { product_id = "pro.annual", state = "expired", will_auto_renew = false,
                  win_back_offers = { "pro.half.year.back" }, paid_months = paid_months } } } }
end

function test_only_a_coffee_lover_who_paid_for_three_months_is_won_back()
    local pro = product("pro.annual")
    local offers = { pro.subscription.win_back_offers[1] }
    expect_eq("pro.half.year.back", decide("winback_offer", lapsed(12), "pro.annual", offers))
    expect_eq(nil, decide("winback_offer", lapsed(2.5), "pro.annual", offers))
end

-- retention_message: the cancel screen

function test_favourite_recipes_are_recalled_on_the_cancel_screen()
    local request = { product_id = "pro.annual", original_transaction_id = "2000000000000001" }
    local fan = context{ customer = { id = "lover-1", status_known = true, events = { ["viewed_recipe.latte"] = { count = 5 } } } }
    expect_eq("3b0f6c2e-5a4d-4e1f-9b7c-8d2a1e6f4c90", decide("retention_message", fan, request).message)
    expect_eq("9d4e2a71-0c3b-4f8e-a6d5-1b7c9e2f3a48", decide("retention_message", coffee_lover({}, "subscribed"), request).message)
end

-- renewal_extension: compensation for an outage

function test_an_outage_gives_a_day_per_day_of_outage()
    local subscription = { product_id = "pro.annual", original_transaction_id = "2000000000000001" }
    local outage = { start = NOW - 50 * 3600, ["end"] = NOW, reason = "recipes down" }
    expect_eq({ days = 3, reason = "SERVICE_ISSUE_OR_OUTAGE" }, decide("renewal_extension", coffee_lover({}, "subscribed"), subscription, outage))
end
