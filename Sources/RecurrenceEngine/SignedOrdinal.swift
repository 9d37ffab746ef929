/// Where RFC 5545's signed ordinal `value` (BYWEEKNO, BYYEARDAY, BYMONTHDAY,
/// BYSETPOS) falls among `count` things, counted from 1: a positive value
/// counts from the first, a negative one back from the last (-1 is `count`).
/// The result may lie outside 1...count (BYMONTHDAY=31 in April, BYSETPOS=-5
/// of three candidates): such a value names nothing and is skipped, never clamped.
@inline(__always)
func ordinalPosition(_ value: Int, among count: Int) -> Int {
    value > 0 ? value : count + value + 1
}
