"""Prints gbstats 0.8.0's results for the aggregates StoreStatistics' parity tests send.

Reads one JSON object on stdin:
  {"comparisons": [{"test": "fixed" | "sequential", "difference": "absolute" | "relative",
                    "alpha": 0.05, "tuning": 5000, "statistic": "mean" | "proportion",
                    "control": {"n": 100, "sum": 12.0, "sum_squares": 30.0}, "treatment": {...}}],
   "srm": [{"counts": [500, 480], "weights": [0.5, 0.5]}],
   "functions": [{"name": "t_sf", "x": 2.0, "df": 10.0}]}
and prints {"comparisons": [...], "srm": [...], "functions": [...]}, one answer per question in
order: a comparison as gbstats' TwoSidedTTest or SequentialTwoSidedTTest computes it (expected,
ci, p_value, the uplift's stddev, error_message, and the Welch degrees of freedom), an SRM
p-value from gbstats' check_srm, a function's value from scipy, which gbstats relies on.
"""
import json
import math
import sys

from scipy import special, stats

from gbstats.frequentist.tests import (
    FrequentistConfig,
    SequentialConfig,
    SequentialTwoSidedTTest,
    TwoSidedTTest,
)
from gbstats.models.statistics import ProportionStatistic, SampleMeanStatistic
from gbstats.utils import check_srm


def statistic(kind, aggregate):
    if kind == "proportion":
        return ProportionStatistic(n=aggregate["n"], sum=aggregate["sum"])
    return SampleMeanStatistic(n=aggregate["n"], sum=aggregate["sum"], sum_squares=aggregate["sum_squares"])


def finite_or_none(value):
    value = float(value)
    return value if math.isfinite(value) else None


def compare(question):
    control = statistic(question["statistic"], question["control"])
    treatment = statistic(question["statistic"], question["treatment"])
    if question["test"] == "sequential":
        config = SequentialConfig(difference_type=question["difference"], alpha=question["alpha"],
                                  sequential_tuning_parameter=question["tuning"])
        test = SequentialTwoSidedTTest(control, treatment, config)
    else:
        config = FrequentistConfig(difference_type=question["difference"], alpha=question["alpha"])
        test = TwoSidedTTest(control, treatment, config)
    result = test.compute_result()
    answer = {
        "expected": finite_or_none(result.expected),
        "ci": [finite_or_none(bound) for bound in result.ci],
        "p_value": finite_or_none(result.p_value),
        "stddev": finite_or_none(result.uplift.stddev),
        "error_message": result.error_message,
        "dof": None,
    }
    if result.error_message is None and question["test"] == "fixed":
        answer["dof"] = finite_or_none(test.dof)
    return answer


FUNCTIONS = {
    "t_cdf": lambda q: stats.t.cdf(q["x"], q["df"]),
    "t_sf": lambda q: stats.t.sf(q["x"], q["df"]),
    "t_ppf": lambda q: stats.t.ppf(q["p"], q["df"]),
    "t_isf": lambda q: stats.t.isf(q["p"], q["df"]),
    "norm_cdf": lambda q: stats.norm.cdf(q["x"]),
    "norm_sf": lambda q: stats.norm.sf(q["x"]),
    "norm_ppf": lambda q: stats.norm.ppf(q["p"]),
    "chi2_sf": lambda q: stats.chi2.sf(q["x"], q["df"]),
    "gammaincc": lambda q: special.gammaincc(q["a"], q["x"]),
    "betainc": lambda q: special.betainc(q["a"], q["b"], q["x"]),
}


def main():
    questions = json.load(sys.stdin)
    answers = {
        "comparisons": [compare(question) for question in questions.get("comparisons", [])],
        "srm": [finite_or_none(check_srm(q["counts"], q["weights"])) for q in questions.get("srm", [])],
        "functions": [finite_or_none(FUNCTIONS[q["name"]](q)) for q in questions.get("functions", [])],
    }
    json.dump(answers, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
