"""Prints the Chinese calendar's months as the `lunardate` package has them
(its own table, from the Hong Kong Observatory's), for the Chinese years
1900 through 2099, for ChineseCalendarTests to hold Chime's table against:

    YEAR NEW-YEAR MONTH:LENGTH ...      e.g. 2023 2023-01-22 1:29 2:30 2L:29 3:29 ...

one line a year, the months in order, a leap month marked L.
"""
import datetime

from lunardate import LunarDate


def main():
    for year in range(1900, 2100):
        leap = LunarDate.leap_month_for_year(year)
        months = []
        for month in range(1, 13):
            months.append((month, False))
            if month == leap:
                months.append((month, True))
        words = [str(year), LunarDate(year, 1, 1).to_solar_date().isoformat()]
        for month, is_leap in months:
            try:
                LunarDate(year, month, 30, is_leap).to_solar_date()
                length = 30
            except ValueError:
                length = 29
            words.append(f"{month}{'L' if is_leap else ''}:{length}")
        print(" ".join(words))


if __name__ == "__main__":
    main()
