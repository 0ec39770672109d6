"""The rows of a StoreRules ledger's tables that the metrics judge reads: SQLite through
Python's sqlite3, PostgreSQL through `psql` (no PostgreSQL driver is needed)."""

import sqlite3
import subprocess

COLUMNS = ["transaction_id", "original_transaction_id", "customer_id", "product_id", "product_type",
           "purchase_date", "expires_date", "revocation_date", "is_upgraded", "offer_type",
           "offer_discount_type", "price", "currency", "environment", "ownership_type"]
INTEGER_COLUMNS = {"purchase_date", "expires_date", "revocation_date", "is_upgraded", "offer_type", "price"}


def transactions_query():
    columns = ", ".join("CASE WHEN is_upgraded THEN 1 ELSE 0 END" if c == "is_upgraded" else c for c in COLUMNS)
    return f"SELECT {columns} FROM store_transaction"


def read_rows(ledger, sql, columns):
    """Every row of `sql` as a dict of `columns`, integers as int and NULL as None."""
    if ledger.startswith("postgres://") or ledger.startswith("postgresql://"):
        null = "\\N-judge"
        output = subprocess.run(["psql", ledger, "-X", "-q", "-A", "-t", "-F", "\x1f", "-P", f"null={null}",
                                 "-v", "ON_ERROR_STOP=1", "-c", sql],
                                check=True, capture_output=True, text=True).stdout
        raw = [line.split("\x1f") for line in output.split("\n") if line != ""]
        raw = [[None if value == null else value for value in row] for row in raw]
    else:
        connection = sqlite3.connect(f"file:{ledger}?mode=ro", uri=True)
        raw = connection.execute(sql).fetchall()
        connection.close()
    rows = []
    for values in raw:
        row = dict(zip(columns, values))
        for column in INTEGER_COLUMNS & set(columns):
            if row[column] is not None:
                row[column] = int(row[column])
        if "currency" in row and row["currency"] is None:
            row["currency"] = ""  # a price without a currency is reported under the empty code
        rows.append(row)
    return rows


def read_ledger(ledger, environment):
    transactions = read_rows(ledger, transactions_query(), COLUMNS)
    if environment is not None:
        transactions = [t for t in transactions if t["environment"] == environment]
    # A family member's copy carries the purchaser's price: only purchases count.
    transactions = [t for t in transactions if t["ownership_type"] in (None, "PURCHASED")]
    grace = {}
    for row in read_rows(ledger, "SELECT original_transaction_id, grace_period_expires_date FROM renewal_info",
                         ["original_transaction_id", "grace_period_expires_date"]):
        if row["grace_period_expires_date"] is not None:
            grace[row["original_transaction_id"]] = int(row["grace_period_expires_date"])
    return transactions, grace
