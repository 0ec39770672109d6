"""Times of a metrics report: UTC dates and ISO 8601 times to and from milliseconds since
1970, and the boundaries of day, week (from Monday) and month intervals."""

import datetime as dt


def ms(moment):
    return int(moment.replace(tzinfo=dt.timezone.utc).timestamp() * 1000) if moment.tzinfo is None \
        else int(moment.timestamp() * 1000)


def parse_time(text):
    """A UTC date (its midnight), an ISO 8601 time, or milliseconds since 1970."""
    if text.isdigit():
        return int(text)
    if len(text) == 10:
        return ms(dt.datetime.strptime(text, "%Y-%m-%d"))
    return ms(dt.datetime.fromisoformat(text.replace("Z", "+00:00")))


def iso(milliseconds):
    moment = dt.datetime.fromtimestamp(milliseconds / 1000, dt.timezone.utc)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if milliseconds % 1000:
        text += f".{milliseconds % 1000:03d}"
    return text + "Z"


def interval_start(milliseconds, interval):
    day = dt.datetime.fromtimestamp(milliseconds / 1000, dt.timezone.utc).date()
    if interval == "week":
        day -= dt.timedelta(days=day.weekday())
    elif interval == "month":
        day = day.replace(day=1)
    return ms(dt.datetime(day.year, day.month, day.day))


def next_start(start, interval):
    day = dt.datetime.fromtimestamp(start / 1000, dt.timezone.utc).date()
    if interval == "day":
        day += dt.timedelta(days=1)
    elif interval == "week":
        day += dt.timedelta(days=7)
    else:
        day = (day.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    return ms(dt.datetime(day.year, day.month, day.day))


def boundaries(start, end, interval):
    result = [interval_start(start, interval)]
    while result[-1] <= end:
        result.append(next_start(result[-1], interval))
    return result
