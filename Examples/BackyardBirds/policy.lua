-- Backyard Birds: the business rules of the bird food shop and the Backyard Birds Pass.
--
-- Everything a product person may want to change is in the tables at the top.
-- The functions below them are the hooks StoreRules calls; see docs/policy.md.

-- The "Backyard Birds Pass" subscription group (its id in Products.storekit).
local PASS = "6F3A93AB"

-- What each bird food product puts in the supplies inventory, per unit bought.
local FOOD = {
    ["pellet.single"] = { { item = "pellet", amount = 1 } },
    ["pellet.box"]    = { { item = "pellet", amount = 5 } },
    ["nectar.cup"]    = { { item = "nectar", amount = 1 } },
    ["food.sampler"]  = { { item = "pellet", amount = 2 }, { item = "nectar", amount = 2 } },
}

-- The product shown as the hero of the shop.
local BEST_VALUE = "pellet.box"

-- The hero the sampler_hero experiment tries instead (see policy.experiments below).
local SAMPLER = "food.sampler"

-- The icon (an SF Symbol name) of each pass plan.
local PLAN_ICONS = {
    ["pass.premium"]    = "bird",
    ["pass.family"]     = "person.2",
    ["pass.individual"] = "person",
}

-- What each pass plan unlocks.
local PASS_FEATURES = {
    ["pass.individual"] = { "unlimited_backyards", "decorations" },
    ["pass.family"]     = { "unlimited_backyards", "decorations", "family_sharing" },
    ["pass.premium"]    = { "unlimited_backyards", "decorations", "family_sharing", "rare_birds" },
}

-- What each non-consumable unlocks while the customer owns it.
local OWNED_FEATURES = {
    ["feeder.golden"] = "golden_feeder",
}

-- Refund requests: once more than this share of a food purchase has been fed to the birds,
-- we ask Apple to decline the refund; below it, to grant it in full.
local MOSTLY_FED = 0.5

-- The retention messages uploaded to App Store Connect, by their identifiers (UUIDs), for
-- the cancel screen.
local RETENTION_MESSAGES = {
    birds_miss_you = "6c1f0f3e-8f0a-4d8e-9a55-2f7b0c3d9e11",  -- "Your backyard birds will miss you"
    cheaper_plan   = "b7e2a4d1-3c5f-4e6a-8b9c-0d1e2f3a4b5c",  -- "Keep the pass for less"
    premium_offer  = "4a9d6c2b-1e8f-4b7a-9c3d-5e6f7a8b9c0d",  -- "Three months of Premium for less"
}

-- The subscription states in which a bird watcher keeps the pass.
-- Besides "subscribed", we keep access while the App Store is sorting out a failed
-- renewal: during the grace period (as the App Store does) and also during billing retry,
-- because most billing problems are fixed within days and locking a bird watcher out
-- meanwhile loses them. "expired" and "revoked" end access.
local KEEPS_ACCESS = {
    subscribed = true,
    in_grace_period = true,
    in_billing_retry = true,
}

-- The customer's pass subscription when it gives access now, else nil.
local function active_pass(ctx)
    local pass = ctx.customer.subscriptions[PASS]
    if pass ~= nil and KEEPS_ACCESS[pass.state] then
        return pass
    end
    return nil
end

local policy = {}

-- Experiments: does a cheaper hero (the sampler) bring more first purchases than the box?
-- Half of the bird watchers see the sampler as the shop's hero; `storerules experiments
-- report` compares what each half buys. Changing the weights starts a new phase.
policy.experiments = {
    sampler_hero = {
        variants = { control = 50, sampler = 50 },
    },
}

-- Whether to show the pass offer at a placement ("home" for the offer card on the
-- backyard grid, "store" for the shop).
function policy.show_merchandising(ctx, placement)
    -- Until the subscription status has loaded we do not know who pays: show nothing.
    if not ctx.customer.status_known then return false end
    -- The shop always lists the pass (subscribers see their upgrades there).
    if placement == "store" then return true end
    -- Anywhere else, only bird watchers without the pass see the offer card.
    return active_pass(ctx) == nil
end

-- Which plans the pass sheet shows, relative to the customer's current plan.
function policy.visible_relationships(ctx, group)
    local current = ctx.customer.subscriptions[group.id]
    if current == nil or not KEEPS_ACCESS[current.state] then
        return { "all" }      -- not a subscriber: every plan
    end
    if current.group_level == 1 then
        return {}             -- already on the top plan: nothing to sell
    end
    return { "upgrade" }      -- a subscriber: only plans with more to offer
end

-- The icon next to each plan in the pass sheet.
function policy.plan_icon(ctx, plan)
    return PLAN_ICONS[plan.id]
end

-- What a purchase puts in the inventory. The pass and the golden feeder are not
-- inventory: they unlock features (see policy.features) and grant nothing here.
function policy.grant(ctx, tx, product)
    local contents = FOOD[product.id]
    if contents == nil then
        -- A consumable without a rule must not be finished with nothing granted: fail,
        -- so the purchase stays unfinished and is granted once the rule is added.
        if product.type == "consumable" then
            error("no grant rule for the consumable " .. product.id)
        end
        return {}
    end
    local quantity = tx.quantity or 1
    local grants = {}
    for position, entry in ipairs(contents) do
        grants[position] = { item = entry.item, amount = entry.amount * quantity }
    end
    return grants
end

-- How prominently the shop shows a product.
function policy.product_style(ctx, product)
    local hero = ctx.experiments.sampler_hero == "sampler" and SAMPLER or BEST_VALUE
    if product.id == hero then return "large" end           -- the hero above the shelves
    if product.type == "consumable" then return "regular" end -- the food shelves
    return "compact"
end

-- The extra buttons of the shop ("store") and the pass sheet ("subscription_store").
function policy.store_buttons(ctx, view)
    local buttons = {
        cancellation = "automatic",     -- a close button whenever the view is a sheet
        restore_purchases = "visible",
    }
    if view == "subscription_store" then
        -- Offer codes are for bird watchers who do not have the pass yet.
        buttons.redeem_code = active_pass(ctx) and "hidden" or "visible"
        buttons.sign_in = "hidden"      -- the pass is sold only through the App Store
        buttons.policies = "visible"
    end
    return buttons
end

-- The features unlocked for the customer now.
function policy.features(ctx)
    local features = {}
    local pass = active_pass(ctx)
    if pass ~= nil then
        for _, feature in ipairs(PASS_FEATURES[pass.product_id] or {}) do
            features[#features + 1] = feature
        end
    end
    for _, owned in ipairs(ctx.customer.entitlements) do
        if OWNED_FEATURES[owned] then features[#features + 1] = OWNED_FEATURES[owned] end
    end
    return features
end

-- The cancel screen. A bird watcher who saw the price rise notice is offered the next plan
-- down; a Premium subscriber its promotional offer; everyone else a word from the birds.
function policy.retention_message(ctx, request)
    local plan = ctx.catalog.products[request.product_id]
    if plan == nil or plan.subscription == nil then return nil end  -- Apple's default message
    if ctx.customer.events.price_rise_seen ~= nil then
        local group = ctx.catalog.groups[plan.subscription.group_id]
        for _, id in ipairs(group.products) do
            if ctx.catalog.products[id].subscription.group_level == plan.subscription.group_level + 1 then
                return { message = RETENTION_MESSAGES.cheaper_plan, alternate_product = id }
            end
        end
    end
    local offer = plan.subscription.promotional_offers[1]
    if offer ~= nil then
        return { message = RETENTION_MESSAGES.premium_offer, promotional_offer = offer.id }
    end
    return { message = RETENTION_MESSAGES.birds_miss_you }
end

-- A lapsed bird watcher is won back with the cheapest offer Apple lets them redeem.
function policy.winback_offer(ctx, product, offers)
    local cheapest
    for _, offer in ipairs(offers) do
        if cheapest == nil or tonumber(offer.price) < tonumber(cheapest.price) then cheapest = offer end
    end
    return cheapest and cheapest.id
end

-- Compensation for an outage: every pass subscriber touched gets the outage's length in
-- days, rounded up, as a service issue.
function policy.renewal_extension(ctx, subscription, incident)
    local days = math.ceil((incident["end"] - incident.start) / 86400)
    return { days = math.min(math.max(days, 1), 90), reason = "SERVICE_ISSUE_OR_OUTAGE" }
end

-- How much of an item the bird watcher still has: what purchases granted (the balance) less
-- what the app recorded as fed to the birds, one "fed_<item>" event per unit.
local function left_of(ctx, item)
    local fed = ctx.customer.events["fed_" .. item]
    return math.max(0, (ctx.customer.balances[item] or 0) - (fed and fed.count or 0))
end

-- What we tell Apple when a bird watcher asks for a refund. A purchase the ledger never
-- granted reached no one: nothing was delivered, and the refund is welcome. For food we say
-- how much of the purchase was fed (the latest purchase is the last fed), and prefer to
-- decline once most of it is gone. The pass starts with a free month, a sample; one bought by
-- mistake is refunded.
function policy.consumption(ctx, tx, request)
    local product = ctx.catalog.products[tx.product_id]
    if product == nil then return nil end           -- not a product we sell: send nothing
    local answer = {
        customer_consented = true,
        delivery_status = "DELIVERED",
        sample_content_provided = product.type == "auto_renewable",
    }
    if not tx.granted then
        answer.delivery_status = "UNDELIVERED_OTHER"
        answer.refund_preference = "GRANT_FULL"
        return answer
    end
    local contents = FOOD[product.id]
    if contents ~= nil then
        local granted, left = 0, 0
        for _, entry in ipairs(contents) do
            local amount = entry.amount * (tx.quantity or 1)
            granted = granted + amount
            left = left + math.min(amount, left_of(ctx, entry.item))
        end
        local fed = granted - left
        answer.consumption_percentage = fed * 100000 // granted
        answer.refund_preference = fed > granted * MOSTLY_FED and "DECLINE" or "GRANT_FULL"
    elseif request.reason == "UNINTENDED_PURCHASE" then
        answer.refund_preference = "GRANT_FULL"
    end
    return answer
end

return policy
