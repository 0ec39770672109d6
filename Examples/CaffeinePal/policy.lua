-- Caffeine Pal: the business rules of the tip jar, the recipe shop and Caffeine Pal Pro.
--
-- Everything a product person may want to change is in the tables at the top.
-- The functions below them are the hooks StoreRules calls; see docs/policy.md.

-- The "Caffeine Pal Pro" subscription group (its id in Products.storekit).
local PRO = "8FC5B912"

-- Recipes are the non-consumables whose product id starts with this.
local RECIPE_PREFIX = "recipe."

-- Cups of coffee each tip puts in the tip jar, per unit bought.
local TIP_CUPS = {
    ["tip.small"]  = 1,
    ["tip.medium"] = 4,
    ["tip.large"]  = 10,
}

-- The subscription states in which Pro keeps working. Caffeine Pal follows the App
-- Store's own rule: service continues during the grace period, not during billing retry.
local KEEPS_ACCESS = {
    subscribed = true,
    in_grace_period = true,
}

-- Refund requests: a recipe opened at least this many times has been used; we then ask Apple
-- to decline its refund. The app records a "viewed_<recipe id>" event each time it opens one.
local RECIPE_USED_AFTER_VIEWS = 1

-- Win-back offers go to coffee lovers who paid for Pro at least this many months.
local WIN_BACK_AFTER_PAID_MONTHS = 3

-- Retention messages, as registered with Apple's Retention Messaging (their UUIDs).
local RETENTION_MESSAGES = {
    your_recipes = "3b0f6c2e-5a4d-4e1f-9b7c-8d2a1e6f4c90",  -- "Your N favourite recipes stay with Pro"
    new_recipes = "9d4e2a71-0c3b-4f8e-a6d5-1b7c9e2f3a48",   -- "New recipes every month"
}

-- Recipes viewed often enough to count as favourites on the cancel screen.
local FAVOURITE_AFTER_VIEWS = 3

local function is_recipe(product)
    return product.type == "non_consumable" and product.id:sub(1, #RECIPE_PREFIX) == RECIPE_PREFIX
end

local function has_pro(ctx)
    local pro = ctx.customer.subscriptions[PRO]
    return pro ~= nil and KEEPS_ACCESS[pro.state] == true
end

local policy = {}

-- Whether to advertise Pro and recipes at a placement ("recipes" for the recipe list,
-- "tip_jar" for the tip jar).
function policy.show_merchandising(ctx, placement)
    if not ctx.customer.status_known then return false end
    -- Tips are welcome from everyone, Pro members too.
    if placement == "tip_jar" then return true end
    -- Pro members already have every recipe: do not sell them any.
    return not has_pro(ctx)
end

-- Pro has one plan: non-members see it, members see the plan they have.
function policy.visible_relationships(ctx, group)
    local current = ctx.customer.subscriptions[group.id]
    if current ~= nil and KEEPS_ACCESS[current.state] then
        return { "current" }
    end
    return { "all" }
end

function policy.plan_icon(ctx, plan)
    if plan.subscription and plan.subscription.group_id == PRO then
        return "cup.and.saucer.fill"
    end
    return nil
end

-- A tip fills the tip jar and earns a thank-you card; recipes and Pro unlock features
-- (see policy.features) and grant nothing here.
function policy.grant(ctx, tx, product)
    local cups = TIP_CUPS[product.id]
    if cups ~= nil then
        return {
            { item = "tip_jar_cups", amount = cups * (tx.quantity or 1) },
            { item = "thank_you_card", amount = 1 },
        }
    end
    if product.type == "consumable" then
        -- A new tip size without a rule: fail, so the purchase stays unfinished and is
        -- granted once the rule is added, rather than finished with nothing granted.
        error("no grant rule for the consumable " .. product.id)
    end
    return {}
end

function policy.product_style(ctx, product)
    if product.type == "auto_renewable" then return "large" end  -- Pro leads the shop
    if is_recipe(product) then return "regular" end
    return "compact"                                             -- tips
end

function policy.store_buttons(ctx, view)
    local buttons = {
        cancellation = "automatic",
        restore_purchases = "visible",   -- recipes are bought once and restored on new devices
    }
    if view == "subscription_store" then
        buttons.redeem_code = "hidden"   -- Caffeine Pal has no offer codes
        buttons.policies = "visible"
    end
    return buttons
end

-- Every recipe the customer owns, or every recipe in the catalog with Pro; sorted.
function policy.features(ctx)
    local unlocked = {}
    for _, product_id in ipairs(ctx.customer.entitlements) do
        local product = ctx.catalog.products[product_id]
        if product ~= nil and is_recipe(product) then unlocked[product_id] = true end
    end
    if has_pro(ctx) then
        unlocked.pro = true
        for product_id, product in pairs(ctx.catalog.products) do
            if is_recipe(product) then unlocked[product_id] = true end
        end
    end
    local features = {}
    for feature in pairs(unlocked) do features[#features + 1] = feature end
    table.sort(features)
    return features
end

-- What we tell Apple when a coffee lover asks for a refund. A purchase the ledger never
-- granted was not delivered, and is refunded. A tip is enjoyed the moment it is given: fully
-- consumed, and we let Apple decide. A recipe never opened is refunded; one opened is used,
-- and we prefer to decline. Pro's free week is a sample; Pro bought by mistake is refunded.
function policy.consumption(ctx, tx, request)
    local product = ctx.catalog.products[tx.product_id]
    if product == nil then return nil end
    local answer = { customer_consented = true, delivery_status = "DELIVERED", sample_content_provided = false }
    if not tx.granted then
        answer.delivery_status = "UNDELIVERED_OTHER"
        answer.refund_preference = "GRANT_FULL"
        return answer
    end
    if TIP_CUPS[product.id] then
        answer.consumption_percentage = 100000
    elseif is_recipe(product) then
        local views = ctx.customer.events["viewed_" .. product.id]
        local used = views ~= nil and views.count >= RECIPE_USED_AFTER_VIEWS
        answer.consumption_percentage = used and 100000 or 0
        answer.refund_preference = used and "DECLINE" or "GRANT_FULL"
    elseif product.type == "auto_renewable" then
        answer.sample_content_provided = product.subscription.introductory_offer ~= nil
        if request.reason == "UNINTENDED_PURCHASE" then answer.refund_preference = "GRANT_FULL" end
    end
    return answer
end

-- A lapsed Pro subscriber is won back only after paying for three months; the best offer
-- Apple lists is the one shown.
function policy.winback_offer(ctx, product, offers)
    local pro = ctx.customer.subscriptions[PRO]
    if pro == nil or pro.paid_months < WIN_BACK_AFTER_PAID_MONTHS then return nil end
    return offers[1] and offers[1].id
end

-- The cancel screen: a coffee lover with favourite recipes is reminded of them; anyone else
-- hears about the recipes to come.
function policy.retention_message(ctx, request)
    for name, event in pairs(ctx.customer.events) do
        if name:sub(1, #"viewed_") == "viewed_" and event.count >= FAVOURITE_AFTER_VIEWS then
            return { message = RETENTION_MESSAGES.your_recipes }
        end
    end
    return { message = RETENTION_MESSAGES.new_recipes }
end

-- Compensation for an outage: Pro is a year long, so a day for every day recipes were out,
-- rounded up, at least one.
function policy.renewal_extension(ctx, subscription, incident)
    local days = math.ceil((incident["end"] - incident.start) / 86400)
    return { days = math.min(math.max(days, 1), 90), reason = "SERVICE_ISSUE_OR_OUTAGE" }
end

return policy
