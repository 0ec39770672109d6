-- The Backyard Birds story, hook by hook. Run with: storerules test Examples/BackyardBirds

local PASS = "6F3A93AB"

-- A bird watcher whose status has loaded, with the given pass plan and state (or none).
local function watcher(plan, state, entitlements)
    local subscriptions = {}
    if plan ~= nil then
        subscriptions[PASS] = { product_id = plan, state = state or "subscribed" }
    end
    return context{ customer = {
        id = "watcher-1", status_known = true,
        subscriptions = subscriptions, entitlements = entitlements or {},
    } }
end

-- The catalog

function test_the_pass_has_three_levels_of_service_premium_first()
    local pass = group(PASS)
    expect_eq("Backyard Birds Pass", pass.name)
    expect_eq({ "pass.premium", "pass.family", "pass.individual" }, pass.products)
    expect_eq(1, product("pass.premium").subscription.group_level)
    expect_eq(3, product("pass.individual").subscription.group_level)
end

function test_every_plan_starts_with_a_free_month()
    for _, id in ipairs(group(PASS).products) do
        local intro = product(id).subscription.introductory_offer
        expect_eq("free_trial", intro.payment_mode, id)
        expect_eq({ unit = "month", value = 1 }, intro.period, id)
    end
end

function test_premium_has_a_three_month_promotional_offer()
    local offer = product("pass.premium").subscription.promotional_offers[1]
    expect_eq("premium.three.months", offer.id)
    expect_eq("pay_as_you_go", offer.payment_mode)
    expect_eq(3, offer.period_count)
end

-- show_merchandising

function test_a_new_bird_watcher_sees_the_pass_offer()
    expect_true(policy.show_merchandising(watcher(nil), "home"))
    expect_true(policy.show_merchandising(watcher(nil), "store"))
end

function test_nothing_is_shown_while_the_status_is_unknown()
    local unknown = context{ customer = { id = "watcher-1" } }
    expect_false(policy.show_merchandising(unknown, "home"))
    expect_false(policy.show_merchandising(unknown, "store"))
end

function test_subscribing_hides_the_offer_card_but_not_the_shop()
    local subscriber = watcher("pass.individual")
    expect_false(policy.show_merchandising(subscriber, "home"))
    expect_true(policy.show_merchandising(subscriber, "store"))
end

function test_an_expired_pass_brings_the_offer_card_back()
    expect_true(policy.show_merchandising(watcher("pass.individual", "expired"), "home"))
    expect_true(policy.show_merchandising(watcher("pass.family", "revoked"), "home"))
end

-- visible_relationships

function test_a_new_bird_watcher_sees_every_plan()
    expect_eq({ "all" }, policy.visible_relationships(watcher(nil), group(PASS)))
end

function test_an_individual_subscriber_is_offered_only_upgrades()
    expect_eq({ "upgrade" }, policy.visible_relationships(watcher("pass.individual"), group(PASS)))
    expect_eq({ "upgrade" }, policy.visible_relationships(watcher("pass.family"), group(PASS)))
end

function test_a_premium_subscriber_is_offered_nothing()
    expect_eq({}, policy.visible_relationships(watcher("pass.premium"), group(PASS)))
end

-- plan_icon

function test_each_plan_has_its_icon()
    expect_eq("bird", policy.plan_icon(watcher(nil), product("pass.premium")))
    expect_eq("person.2", policy.plan_icon(watcher(nil), product("pass.family")))
    expect_eq("person", policy.plan_icon(watcher(nil), product("pass.individual")))
end

-- grant

function test_the_box_grants_five_pellets_per_box()
    local box = product("pellet.box")
    expect_eq({ { item = "pellet", amount = 5 } },
        policy.grant(watcher(nil), transaction{ product_id = "pellet.box" }, box))
    expect_eq({ { item = "pellet", amount = 15 } },
        policy.grant(watcher(nil), transaction{ product_id = "pellet.box", quantity = 3 }, box))
end

function test_a_single_pellet_grants_one_pellet()
    expect_eq({ { item = "pellet", amount = 1 } },
        policy.grant(watcher(nil), transaction{ product_id = "pellet.single" }, product("pellet.single")))
end

function test_the_sampler_grants_pellets_and_nectar()
    expect_eq({ { item = "pellet", amount = 4 }, { item = "nectar", amount = 4 } },
        policy.grant(watcher(nil), transaction{ product_id = "food.sampler", quantity = 2 }, product("food.sampler")))
end

function test_the_transaction_reaches_grant_with_apples_fields()
    local tx = transaction{ product_id = "pellet.box", quantity = 2 }
    expect_eq("Consumable", tx.type)
    expect_eq("PURCHASED", tx.in_app_ownership_type)
    expect_eq(NOW, tx.purchase_date)
end

function test_the_pass_and_the_feeder_grant_no_inventory()
    expect_eq({}, policy.grant(watcher(nil), transaction{ product_id = "pass.family" }, product("pass.family")))
    expect_eq({}, policy.grant(watcher(nil), transaction{ product_id = "feeder.golden" }, product("feeder.golden")))
end

function test_a_consumable_without_a_rule_fails_instead_of_granting_nothing()
    local unknown = { id = "seed.bag", type = "consumable" }
    expect_error(function()
        policy.grant(watcher(nil), transaction{ product_id = "seed.bag", type = "Consumable" }, unknown)
    end, "no grant rule for the consumable seed.bag")
end

-- product_style

function test_the_best_value_box_is_the_large_hero()
    expect_eq("large", policy.product_style(watcher(nil), product("pellet.box")))
    expect_eq("regular", policy.product_style(watcher(nil), product("pellet.single")))
    expect_eq("regular", policy.product_style(watcher(nil), product("food.sampler")))
    expect_eq("compact", policy.product_style(watcher(nil), product("feeder.golden")))
end

function test_the_sampler_variant_makes_the_sampler_the_hero()
    local ctx = context{ customer = { id = "watcher-1", status_known = true }, experiments = { sampler_hero = "sampler" } }
    expect_eq("large", decide("product_style", ctx, "food.sampler"))
    expect_eq("regular", decide("product_style", ctx, "pellet.box"))
end

function test_the_control_variant_and_the_holdout_keep_the_box_as_the_hero()
    for _, pin in ipairs({ "control", false }) do
        local ctx = context{ customer = { id = "watcher-1", status_known = true }, experiments = { sampler_hero = pin } }
        expect_eq("large", decide("product_style", ctx, "pellet.box"))
        expect_eq("regular", decide("product_style", ctx, "food.sampler"))
    end
end

-- store_buttons

function test_the_shop_shows_restore_purchases()
    expect_eq({ cancellation = "automatic", restore_purchases = "visible" },
        policy.store_buttons(watcher(nil), "store"))
end

function test_the_pass_sheet_offers_redeem_code_to_non_subscribers_only()
    local buttons = policy.store_buttons(watcher(nil), "subscription_store")
    expect_eq("visible", buttons.redeem_code)
    expect_eq("visible", buttons.policies)
    expect_eq("hidden", buttons.sign_in)
    expect_eq("hidden", policy.store_buttons(watcher("pass.individual"), "subscription_store").redeem_code)
end

-- features

function test_a_new_bird_watcher_has_no_features()
    expect_eq({}, policy.features(watcher(nil)))
end

function test_each_plan_unlocks_its_features()
    expect_eq({ "unlimited_backyards", "decorations" }, policy.features(watcher("pass.individual")))
    expect_contains(policy.features(watcher("pass.family")), "family_sharing")
    expect_contains(policy.features(watcher("pass.premium")), "rare_birds")
end

function test_grace_period_and_billing_retry_keep_the_pass()
    expect_contains(policy.features(watcher("pass.individual", "in_grace_period")), "unlimited_backyards")
    expect_contains(policy.features(watcher("pass.individual", "in_billing_retry")), "unlimited_backyards")
    expect_false(policy.show_merchandising(watcher("pass.individual", "in_billing_retry"), "home"))
end

function test_an_expired_or_revoked_pass_unlocks_nothing()
    expect_eq({}, policy.features(watcher("pass.premium", "expired")))
    expect_eq({}, policy.features(watcher("pass.premium", "revoked")))
end

function test_the_golden_feeder_unlocks_its_skin()
    expect_eq({ "golden_feeder" }, policy.features(watcher(nil, nil, { "feeder.golden" })))
end

function test_the_host_shows_the_premium_plan_with_its_bird()
    local icon, how = decide("plan_icon", context{}, "pass.premium")
    expect_eq("bird", icon)
    expect_eq("policy", how.source)
end

function test_the_host_grants_what_the_policy_says_for_two_boxes()
    local grants, how = decide("grant", context{}, transaction{ product_id = "pellet.box", quantity = 2 })
    expect_eq(policy.grant(context{}, transaction{ product_id = "pellet.box", quantity = 2 }, product("pellet.box")), grants)
    expect_eq("policy", how.source)
end

-- consumption: refund requests

local function pellet_box(quantity)
    return transaction{ product_id = "pellet.box", type = "Consumable", quantity = quantity or 1 }
end

local function feeder(balances, fed)
    local events = {}
    if fed then events.fed_pellet = { count = fed } end
    return context{ customer = { id = "watcher-1", status_known = true, balances = balances, events = events } }
end

function test_a_refund_of_food_barely_fed_is_granted()
    local answer = decide("consumption", feeder({ pellet = 5 }, 1), pellet_box(), { reason = "UNSATISFIED_WITH_PURCHASE" })
    expect_eq(20000, answer.consumption_percentage)
    expect_eq("GRANT_FULL", answer.refund_preference)
    expect_eq("DELIVERED", answer.delivery_status)
end

function test_a_refund_of_food_mostly_fed_is_declined()
    local answer = decide("consumption", feeder({ pellet = 5 }, 4), pellet_box(), { reason = "UNSATISFIED_WITH_PURCHASE" })
    expect_eq(80000, answer.consumption_percentage)
    expect_eq("DECLINE", answer.refund_preference)
end

function test_the_latest_box_is_the_last_fed()
    -- Two boxes bought, three pellets fed: the refunded box is still whole.
    local answer = decide("consumption", feeder({ pellet = 10 }, 3), pellet_box(), {})
    expect_eq(0, answer.consumption_percentage)
    expect_eq("GRANT_FULL", answer.refund_preference)
end

function test_a_box_the_ledger_never_granted_was_not_delivered_and_is_refunded()
    -- Nothing of it reached the feeder: an empty balance is not "all fed".
    local answer = decide("consumption", feeder({}, 0), transaction{ product_id = "pellet.box", granted = false },
                          { reason = "UNSATISFIED_WITH_PURCHASE" })
    expect_eq("UNDELIVERED_OTHER", answer.delivery_status)
    expect_eq("GRANT_FULL", answer.refund_preference)
    expect_nil(answer.consumption_percentage)
end

function test_a_pass_the_ledger_never_granted_is_refunded()
    local tx = transaction{ product_id = "pass.premium", type = "Auto-Renewable Subscription", granted = false }
    local answer = decide("consumption", feeder({}, 0), tx, { reason = "OTHER" })
    expect_eq("UNDELIVERED_OTHER", answer.delivery_status)
    expect_eq("GRANT_FULL", answer.refund_preference)
end

function test_a_pass_bought_by_mistake_is_refunded_and_its_free_month_is_a_sample()
    local tx = transaction{ product_id = "pass.premium", type = "Auto-Renewable Subscription" }
    local answer = decide("consumption", watcher("pass.premium"), tx, { reason = "UNINTENDED_PURCHASE" })
    expect_eq("GRANT_FULL", answer.refund_preference)
    expect_true(answer.sample_content_provided)
    expect_eq(nil, answer.consumption_percentage)
    local other = decide("consumption", watcher("pass.premium"), tx, { reason = "OTHER" })
    expect_eq(nil, other.refund_preference)
end

-- retention_message: the cancel screen

local function cancelling(plan, events)
    local ctx = context{ customer = { id = "watcher-1", status_known = true, entitlements = { plan },
                                      subscriptions = { [PASS] = { product_id = plan, state = "subscribed" } },
                                      events = events or {} } }
    return ctx, { product_id = plan, original_transaction_id = "2000000000000001" }
end

function test_a_premium_subscriber_about_to_cancel_is_offered_three_months_for_less()
    local message, how = decide("retention_message", cancelling("pass.premium"))
    expect_eq("policy", how.source)
    expect_eq("premium.three.months", message.promotional_offer)
end

function test_after_a_price_rise_the_next_plan_down_is_offered()
    local message = decide("retention_message", cancelling("pass.premium", { price_rise_seen = { count = 1 } }))
    expect_eq("pass.family", message.alternate_product)
    local family = decide("retention_message", cancelling("pass.family", { price_rise_seen = { count = 1 } }))
    expect_eq("pass.individual", family.alternate_product)
end

function test_the_cheapest_plan_gets_a_word_from_the_birds()
    local message = decide("retention_message", cancelling("pass.individual", { price_rise_seen = { count = 1 } }))
    expect_eq(nil, message.alternate_product)
    expect_eq(nil, message.promotional_offer)
    expect_eq("6c1f0f3e-8f0a-4d8e-9a55-2f7b0c3d9e11", message.message)
end

-- renewal_extension: compensation for an outage

local function outage(hours)
    return { start = NOW - hours * 3600, ["end"] = NOW, reason = "feeder cams down" }
end

function test_an_outage_is_compensated_by_its_length_rounded_up_to_days()
    local subscription = { product_id = "pass.premium", original_transaction_id = "2000000000000001" }
    local given = decide("renewal_extension", watcher("pass.premium"), subscription, outage(5))
    expect_eq({ days = 1, reason = "SERVICE_ISSUE_OR_OUTAGE" }, given)
    expect_eq(2, decide("renewal_extension", watcher("pass.premium"), subscription, outage(30)).days)
    expect_eq(90, decide("renewal_extension", watcher("pass.premium"), subscription, outage(24 * 200)).days)
end

-- winback_offer: a lapsed watcher

function test_a_lapsed_watcher_is_won_back_with_the_cheapest_offer()
    local ctx = context{ customer = { id = "watcher-1", status_known = true, subscriptions = {
        [PASS] = { product_id = "pass.premium", state = "expired", will_auto_renew = false,
                   win_back_offers = { "premium.welcome.back" } } } } }
    local offers = { product("pass.premium").subscription.win_back_offers[1] }
    local chosen, how = decide("winback_offer", ctx, "pass.premium", offers)
    expect_eq("policy", how.source)
    expect_eq("premium.welcome.back", chosen)
    expect_eq(nil, decide("winback_offer", ctx, "pass.premium", {}))
end
