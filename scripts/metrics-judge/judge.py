#!/usr/bin/env python3
"""Subscription metrics recomputed from a StoreRules ledger's tables, apart from StoreRules.

Reads `store_transaction` and `renewal_info` (SQLite through Python's sqlite3, PostgreSQL
through `psql`), walks every subscription's transactions in Python, and prints the JSON of
`storerules ledger metrics --json` by the figures' written definitions: per interval,
active subscriptions and trials, new customers, trials and their conversion, renewals,
upgrades, churn, refunds, and per currency MRR, its movement and revenue.

Two readings the judge takes where the definitions alone would not add up: a transaction's
coverage ends at the next transaction of its subscription whenever that starts first (a
renewal charged before the period it renews ends does not count the customer twice), and the
interval holding the report's time is read at that very time, so that events at that time,
which count, are in its figures too.

Money is kept exact (fractions of milli-units) until it is printed. With --check, the judge
also checks that each interval's MRR is the previous one's plus its movement, and says on
standard error where it is not.

Usage: judge.py --ledger PATH|postgres://URL --from DATE --to DATE [--interval day|week|month]
                [--as-of DATE|TIME|MS] [--environment E] [--currency C --rates FILE]
                [--periods FILE] [--check]
"""

import argparse
import bisect
import datetime as dt
import json
import sys
from fractions import Fraction

sys.dont_write_bytecode = True  # the judge's own modules, beside it, leave no cache in the tree
from ledger_rows import read_ledger  # noqa: E402
from report_times import boundaries, iso, parse_time  # noqa: E402

AUTO_RENEWABLE = "Auto-Renewable Subscription"
DAY_MS = 86_400_000
# A period's length in days, and its months, for periods read from a transaction's duration.
DURATION_MONTHS = [(7, Fraction(12, 52)), (30.44, Fraction(1)), (60.88, Fraction(2)), (91.31, Fraction(3)),
                   (182.62, Fraction(6)), (365.25, Fraction(12))]
CONVERSION_WINDOW_MS = 60 * DAY_MS
MONEY_FIGURES = ["mrr", "mrr_new", "mrr_reactivation", "mrr_expansion", "mrr_contraction", "mrr_churn",
                 "subscription_revenue", "non_subscription_revenue", "refunded"]


# ---------------------------------------------------------------- subscriptions

def is_trial(transaction):
    return transaction["offer_type"] == 1 and transaction["offer_discount_type"] == "FREE_TRIAL"


def months_of(transaction, periods):
    if transaction["product_id"] in periods:
        return Fraction(periods[transaction["product_id"]])
    days = (transaction["expires_date"] - transaction["purchase_date"]) / DAY_MS
    return min(DURATION_MONTHS, key=lambda pair: abs(pair[0] - days))[1]


class Coverage:
    """A stretch of service one transaction (or a grace period after it) gives."""

    def __init__(self, transaction, start, end, paid, grace, periods):
        self.transaction = transaction
        self.start, self.end = start, end
        self.paid, self.grace = paid, grace
        self.upgraded = bool(transaction["is_upgraded"]) and not grace
        self.currency = transaction["currency"]
        price = Fraction(transaction["price"] or 0)
        self.mrr = price / months_of(transaction, periods) if paid else Fraction(0)

    def active_at(self, instant):
        return self.start <= instant < self.end


def subscriptions_of(transactions):
    groups = {}
    for transaction in transactions:
        if transaction["product_type"] == AUTO_RENEWABLE:
            groups.setdefault(transaction["original_transaction_id"], []).append(transaction)
    for chain in groups.values():
        chain.sort(key=lambda t: (t["purchase_date"], t["transaction_id"]))
    return groups


def coverages_of(chain, grace_expires, periods):
    coverages = []
    for index, transaction in enumerate(chain):
        if transaction["expires_date"] is None:
            continue
        end = transaction["expires_date"]
        if transaction["revocation_date"] is not None:
            end = min(end, transaction["revocation_date"])
        if index + 1 < len(chain):
            end = min(end, chain[index + 1]["purchase_date"])
        end = max(end, transaction["purchase_date"])
        coverages.append(Coverage(transaction, transaction["purchase_date"], end, not is_trial(transaction), False, periods))
    paid_transactions = [t for t in chain if not is_trial(t)]
    if grace_expires is not None and paid_transactions:
        last = paid_transactions[-1]
        last_coverage = next((c for c in coverages if c.transaction is last), None)
        if last_coverage is not None and last["revocation_date"] is None and grace_expires > last_coverage.end:
            coverages.append(Coverage(last, last_coverage.end, grace_expires, True, True, periods))
    return coverages


# ---------------------------------------------------------------- the report

class Report:
    def __init__(self, bounds, as_of, rates, target):
        self.bounds, self.as_of, self.rates, self.target = bounds, as_of, rates, target
        count = len(bounds) - 1
        self.counts = [dict.fromkeys(["active_subscriptions", "active_trials", "new_customers", "new_trials",
                                      "trials_ended", "trials_converted", "new_paid_subscriptions", "renewals",
                                      "upgrades", "product_changes_at_renewal", "churned_subscriptions", "refunds",
                                      "transactions_purchased", "active_before"], 0) for _ in range(count)]
        self.money = [{} for _ in range(count)]
        self.left_out = set()

    def index(self, time):
        """The interval an event at `time` counts in, or None."""
        if time is None or time > self.as_of or time < self.bounds[0] or time >= self.bounds[-1]:
            return None
        return bisect.bisect_right(self.bounds, time) - 1

    def snapshot(self, k):
        """The instant interval k's stock figures are read at: its last instant, or the
        report's time when that is earlier (events at that very time count, so the stock does)."""
        return min(self.bounds[k + 1] - 1, self.as_of)

    def previous_snapshot(self, k):
        return min(self.bounds[k] - 1, self.as_of)

    def count(self, figure, time, amount=1):
        k = self.index(time)
        if k is not None:
            self.counts[k][figure] += amount

    def add_money(self, k, figure, currency, amount):
        if k is None or amount == 0:
            return
        if self.rates is not None:
            if currency not in self.rates:
                self.left_out.add(currency)
                return
            amount = amount * Fraction(self.rates[currency])
            currency = self.target
        figures = self.money[k].setdefault(currency, dict.fromkeys(MONEY_FIGURES, Fraction(0)))
        figures[figure] += amount

    def money_at(self, time, figure, currency, amount):
        self.add_money(self.index(time), figure, currency, amount)


def compute(transactions, grace, bounds, as_of, periods, rates, target):
    report = Report(bounds, as_of, rates, target)
    intervals = range(len(bounds) - 1)

    first_purchase = {}
    for t in transactions:
        customer = t["customer_id"]
        first_purchase[customer] = min(first_purchase.get(customer, t["purchase_date"]), t["purchase_date"])
        report.count("transactions_purchased", t["purchase_date"])
        report.count("refunds", t["revocation_date"])
        price = Fraction(t["price"] or 0)
        kind = "subscription_revenue" if t["product_type"] == AUTO_RENEWABLE else "non_subscription_revenue"
        report.money_at(t["purchase_date"], kind, t["currency"], price)
        report.money_at(t["revocation_date"], "refunded", t["currency"], price)
    for time in first_purchase.values():
        report.count("new_customers", time)

    for original, chain in subscriptions_of(transactions).items():
        coverages = coverages_of(chain, grace.get(original), periods)
        paid = [c for c in coverages if c.paid]

        # Transactions: trials, first paid, renewals, upgrades, product changes.
        first_paid = next((t for t in chain if not is_trial(t)), None)
        if first_paid is not None:
            report.count("new_paid_subscriptions", first_paid["purchase_date"])
        for index, t in enumerate(chain):
            previous = chain[index - 1] if index > 0 else None
            if is_trial(t):
                report.count("new_trials", t["purchase_date"])
            elif t is not first_paid and not (previous is not None and previous["is_upgraded"]):
                report.count("renewals", t["purchase_date"])
                if previous is not None and previous["product_id"] != t["product_id"]:
                    report.count("product_changes_at_renewal", t["purchase_date"])
            if previous is not None and previous["is_upgraded"]:
                report.count("upgrades", t["purchase_date"])

        # Trials that ended, and whether they converted.
        for coverage in coverages:
            if coverage.paid:
                continue
            k = report.index(coverage.end)
            if k is None:
                continue
            report.counts[k]["trials_ended"] += 1
            trial = coverage.transaction
            if any(not is_trial(t) and trial["purchase_date"] <= t["purchase_date"] < coverage.end + CONVERSION_WINDOW_MS
                   for t in chain):
                report.counts[k]["trials_converted"] += 1

        # Churn: a paid coverage (not upgraded) that ends with no later coverage starting by its end.
        for position, coverage in enumerate(coverages):
            if not coverage.paid or coverage.upgraded:
                continue
            if any(later.start <= coverage.end for later in coverages[position + 1:]):
                continue
            report.count("churned_subscriptions", coverage.end)

        # Active coverages and MRR at each snapshot.
        for k in intervals:
            instant = report.snapshot(k)
            before = report.previous_snapshot(k)
            for coverage in coverages:
                if coverage.active_at(instant):
                    report.counts[k]["active_subscriptions" if coverage.paid else "active_trials"] += 1
                    if coverage.paid:
                        report.add_money(k, "mrr", coverage.currency, coverage.mrr)
                if coverage.paid and coverage.active_at(before):
                    report.counts[k]["active_before"] += 1

        # MRR movement along the paid coverages.
        for position, coverage in enumerate(paid):
            previous = paid[position - 1] if position > 0 else None
            following = paid[position + 1] if position + 1 < len(paid) else None
            if previous is None:
                report.money_at(coverage.start, "mrr_new", coverage.currency, coverage.mrr)
            elif continues(coverage, previous):
                change = coverage.mrr - previous.mrr
                report.money_at(coverage.start, "mrr_expansion" if change > 0 else "mrr_contraction",
                                coverage.currency, abs(change))
            else:
                report.money_at(coverage.start, "mrr_reactivation", coverage.currency, coverage.mrr)
            if following is None or not continues(following, coverage):
                report.money_at(coverage.end, "mrr_churn", coverage.currency, coverage.mrr)
    return report


def continues(coverage, previous):
    return coverage.start <= previous.end and coverage.currency == previous.currency


def ratio(numerator, denominator):
    return None if denominator == 0 else numerator / denominator


def number(amount):
    """Milli-units (a fraction) as units, an int when whole."""
    units = amount / 1000
    return int(units) if units.denominator == 1 else float(units)


def document(report, arguments, bounds, as_of):
    intervals = []
    for k in range(len(bounds) - 1):
        c = report.counts[k]
        money = {currency: {figure: number(figures[figure]) for figure in MONEY_FIGURES}
                 for currency, figures in sorted(report.money[k].items())
                 if any(figures[figure] != 0 for figure in MONEY_FIGURES)}
        intervals.append({
            "start": iso(bounds[k]), "end": iso(bounds[k + 1]),
            "active_subscriptions": c["active_subscriptions"], "active_trials": c["active_trials"],
            "new_customers": c["new_customers"], "new_trials": c["new_trials"],
            "trials_ended": c["trials_ended"], "trials_converted": c["trials_converted"],
            "trial_conversion_rate": ratio(c["trials_converted"], c["trials_ended"]),
            "new_paid_subscriptions": c["new_paid_subscriptions"], "renewals": c["renewals"], "upgrades": c["upgrades"],
            "product_changes_at_renewal": c["product_changes_at_renewal"],
            "churned_subscriptions": c["churned_subscriptions"],
            "churn_rate": ratio(c["churned_subscriptions"], c["active_before"]),
            "refunds": c["refunds"], "refund_rate": ratio(c["refunds"], c["transactions_purchased"]),
            "money": money,
        })
    return {"from": iso(bounds[0]), "to": iso(bounds[-1]), "interval": arguments.interval, "as_of": iso(as_of),
            "environment": arguments.environment, "currency": arguments.currency,
            "currencies_left_out": sorted(report.left_out), "period_source": "catalog" if arguments.periods else "duration",
            "intervals": intervals}


def check_movement(report, transactions, grace, bounds, as_of, periods, rates, target):
    """Each interval's MRR against the previous snapshot's plus the interval's movement."""
    before = Report(bounds, as_of, rates, target)
    problems = []
    for k in range(len(bounds) - 1):
        if k == 0:
            previous = {}
            for original, chain in subscriptions_of(transactions).items():
                for coverage in coverages_of(chain, grace.get(original), periods):
                    if coverage.paid and coverage.active_at(before.previous_snapshot(0)):
                        before.add_money(0, "mrr", coverage.currency, coverage.mrr)
            previous = {currency: figures["mrr"] for currency, figures in before.money[0].items()}
        else:
            previous = {currency: figures["mrr"] for currency, figures in report.money[k - 1].items()}
        current = report.money[k]
        for currency in set(previous) | set(current):
            f = current.get(currency, dict.fromkeys(MONEY_FIGURES, Fraction(0)))
            expected = previous.get(currency, Fraction(0)) + f["mrr_new"] + f["mrr_reactivation"] \
                + f["mrr_expansion"] - f["mrr_contraction"] - f["mrr_churn"]
            if expected != f["mrr"]:
                problems.append(f"{iso(bounds[k])} {currency}: mrr {number(f['mrr'])}, previous plus movement {number(expected)}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ledger", required=True)
    parser.add_argument("--from", dest="start", required=True)
    parser.add_argument("--to", dest="end", required=True)
    parser.add_argument("--interval", choices=["day", "week", "month"], default="day")
    parser.add_argument("--as-of")
    parser.add_argument("--environment")
    parser.add_argument("--currency")
    parser.add_argument("--rates")
    parser.add_argument("--periods")
    parser.add_argument("--check", action="store_true")
    arguments = parser.parse_args()
    if (arguments.currency is None) != (arguments.rates is None):
        parser.error("give --currency and --rates together")

    as_of = parse_time(arguments.as_of) if arguments.as_of else int(dt.datetime.now(dt.timezone.utc).timestamp() * 1000)
    bounds = boundaries(parse_time(arguments.start), parse_time(arguments.end), arguments.interval)
    periods = {}
    if arguments.periods:
        with open(arguments.periods) as file:
            periods = json.load(file)
    rates = None
    if arguments.rates:
        with open(arguments.rates) as file:
            rates = {currency: float(rate) for currency, rate in json.load(file).items()}
        rates.setdefault(arguments.currency, 1.0)

    transactions, grace = read_ledger(arguments.ledger, arguments.environment)
    report = compute(transactions, grace, bounds, as_of, periods, rates, arguments.currency)
    if arguments.check:
        for problem in check_movement(report, transactions, grace, bounds, as_of, periods, rates, arguments.currency):
            print(f"judge: MRR movement does not add up: {problem}", file=sys.stderr)
    json.dump(document(report, arguments, bounds, as_of), sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
