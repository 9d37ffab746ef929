import Geofencing
import Testing

@Suite("Position lines")
struct PositionLineTests {
    let received = 1_800_000_000.0

    func fix(_ line: String) throws -> Fix {
        guard case .fix(let fix) = try PositionLine.parse(line, receivedAt: received) else {
            Issue.record("no fix from \(line)")
            throw PositionLineError("no fix")
        }
        return fix
    }

    func failure(_ line: String) -> String {
        do {
            let result = try PositionLine.parse(line, receivedAt: received)
            Issue.record("'\(line)' was accepted as \(result)")
            return ""
        } catch {
            return error.description
        }
    }

    @Test("plain lines: LAT LON [ACCURACY], separated by spaces, tabs or one comma", arguments: [
        ("52.52 13.405", 52.52, 13.405, nil as Double?),
        ("  52.52\t13.405  15 ", 52.52, 13.405, 15.0),
        ("52.52,13.405", 52.52, 13.405, nil),
        ("-33.8688, 151.2093, 4.5", -33.8688, 151.2093, 4.5),
        ("90 -180", 90, -180, nil),
        ("+10 -.2 0.", 10, -0.2, 0),
    ])
    func plain(line: String, latitude: Double, longitude: Double, accuracy: Double?) throws {
        let fix = try fix(line)
        #expect(fix.position.latitude == latitude && fix.position.longitude == longitude)
        #expect(fix.accuracy == accuracy && fix.time == received)
    }

    @Test("geo: URIs (RFC 5870) with altitude, crs=wgs84 and u= in any case", arguments: [
        ("geo:48.2010,16.3695", 48.2010, 16.3695, nil as Double?),
        ("geo:48.2010,16.3695,183", 48.2010, 16.3695, nil),
        ("GEO:-48.198634,16.371648;crs=WGS84;u=40", -48.198634, 16.371648, 40.0),
        ("geo:37.786971,-122.399677;u=35.5;foo=bar", 37.786971, -122.399677, 35.5),
        ("geo:90,0;CRS=wgs84", 90, 0, nil),
    ])
    func geoURI(line: String, latitude: Double, longitude: Double, accuracy: Double?) throws {
        let fix = try fix(line)
        #expect(fix.position.latitude == latitude && fix.position.longitude == longitude)
        #expect(fix.accuracy == accuracy && fix.time == received)
    }

    @Test("a gpsd TPV report gives its position, time and horizontal error (eph, else the larger of epx and epy)")
    func gpsd() throws {
        let full = try fix(#"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2027-01-15T08:30:00.250Z","ept":0.005,"lat":46.498293369,"lon":7.567411672,"alt":1343.127,"eph":36.0,"epv":32.321,"epx":15.319,"epy":17.054,"speed":0.091}"#)
        #expect(full.position.latitude == 46.498293369 && full.position.longitude == 7.567411672)
        #expect(full.accuracy == 36 && full.time == 1_800_001_800.25, "2027-01-15T08:30:00.25Z is 1800001800.25")
        let axes = try fix(#"{"class":"TPV","mode":2,"lat":-1.5,"lon":-77,"epx":12.5,"epy":20,"time":"2027-01-15T16:30:00+08:00"}"#)
        #expect(axes.accuracy == 20 && axes.time == 1_800_001_800)
        let bare = try fix(#"{ "class" : "TPV", "mode" : 3, "lat" : 1, "lon" : 2, "time" : null }"#)
        #expect(bare.accuracy == nil && bare.time == received, "no time: dated on receipt")
    }

    @Test("skips blank lines, comments, TPV reports without a fix and every other gpsd class", arguments: [
        "", "   ", "# a walk round the block",
        #"{"class":"TPV","mode":1,"time":"2027-01-15T08:30:00Z"}"#,
        #"{"class":"TPV","mode":0}"#,
        #"{"class":"TPV","mode":-1e300}"#,
        #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyUSB0","driver":"NMEA0183","activated":"2027-01-15T08:29:58.000Z","flags":1,"native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}]}"#,
        #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#,
        #"{"class":"SKY","device":"/dev/ttyUSB0","satellites":[{"PRN":5,"el":31,"az":86,"ss":40,"used":true},{"PRN":13,"el":-1,"az":0,"ss":0,"used":false}]}"#,
    ])
    func skipped(line: String) throws {
        guard case .skipped = try PositionLine.parse(line, receivedAt: received) else {
            Issue.record("'\(line)' was not skipped")
            return
        }
    }

    @Test("refuses bad lines with a message that names what is wrong", arguments: [
        ("91 13", "latitude '91.0' must be between -90 and 90"),
        ("-90.5 13", "latitude '-90.5'"),
        ("45 180.5", "longitude '180.5' must be between -180 and 180"),
        ("nan 13", "latitude 'nan' is not a number"),
        ("45 inf", "longitude 'inf' is not a number"),
        ("45 13 -5", "accuracy '-5.0' must not be negative"),
        ("45 13 nan", "accuracy 'nan' is not a number"),
        ("45 east", "longitude 'east' is not a number"),
        // Decimal only: Double(_:) reads these as 16, 10 and 20.
        ("0x10 0", "latitude '0x10' is not a number"),
        ("0x10,0", "latitude '0x10' is not a number"),
        ("1e1,0", "latitude '1e1' is not a number"),
        ("45 13 2E1", "accuracy '2E1' is not a number"),
        ("hello", "not a position: 'hello'"),
        ("45 13 10 7", "not a position"),
        ("45,,13", "an empty field"),
        (",45 13", "an empty field"),
        ("45 13,", "an empty field"),
        ("geo:", "geo: URI 'geo:' needs LAT,LON"),
        ("geo:48.2;u=3", "needs LAT,LON"),
        ("geo:48.2,16.3,1,2", "needs LAT,LON"),
        ("geo:95,16", "latitude '95.0' must be between -90 and 90"),
        ("geo:48,-181", "longitude '-181.0'"),
        ("geo:nan,16", "latitude 'nan' in geo: URI 'geo:nan,16' is not a number"),
        ("geo:+48,16", "latitude '+48'"),
        ("geo:4.8e1,16", "latitude '4.8e1'"),
        ("geo:48,16,high", "altitude 'high'"),
        ("geo:48,16;crs=nad27", "crs 'nad27' is not supported: only wgs84"),
        ("geo:48,16;u=-3", "accuracy '-3.0' must not be negative"),
        ("geo:48,16;u=", "accuracy (u) ''"),
        ("geo:48,16;u=3;u=4", "more than one 'u' parameter"),
        ("geo:48,16;;u=3", "an empty parameter"),
        (#"{"class":"TPV","mode":3,"lat":46.5"#, "not valid JSON"),
        (#"{"class":"TPV","mode":3,"lat":046.5,"lon":7}"#, "not valid JSON"),
        (#"{"class":"TPV","mode":3,"lat":NaN,"lon":7}"#, "not valid JSON"),
        (#"{"class":"TPV","mode":3,"lat":1e999,"lon":7}"#, "a number too large: '1e999'"),
        (#"{"class":"TPV"} trailing"#, "unexpected text after the JSON object"),
        (#"{"mode":3,"lat":46.5,"lon":7}"#, "without a \"class\" string"),
        (#"{"class":"TPV","lat":46.5,"lon":7}"#, "without a numeric \"mode\""),
        (#"{"class":"TPV","mode":"3","lat":46.5,"lon":7}"#, "without a numeric \"mode\""),
        (#"{"class":"TPV","mode":3,"lon":7}"#, "no \"lat\" and \"lon\""),
        // A mode past Int's range is shown as it came, not converted (Int() trapped: found by fuzzing).
        (#"{"class":"TPV","mode":3333333333333333333333333333333333333333,"lat":-1.5}"#, "mode 3.333333333333333e+39 but no \"lat\" and \"lon\""),
        (#"{"class":"TPV","mode":2.5,"lat":-1.5}"#, "mode 2.5 but no"),
        (#"{"class":"TPV","mode":3,"lat":true,"lon":7}"#, "\"lat\" is not a number but true"),
        (#"{"class":"TPV","mode":3,"lat":"46.5","lon":7}"#, "\"lat\" is not a number but the string \"46.5\""),
        (#"{"class":"TPV","mode":3,"lat":99.5,"lon":7}"#, "latitude '99.5' must be between -90 and 90"),
        (#"{"class":"TPV","mode":3,"lat":46.5,"lon":7,"eph":-1}"#, "accuracy '-1.0' must not be negative"),
        (#"{"class":"TPV","mode":3,"lat":46.5,"lon":7,"time":"yesterday"}"#, "time 'yesterday' is not an ISO 8601"),
        (#"{"class":"TPV","mode":3,"lat":46.5,"lon":7,"time":1800000000}"#, "\"time\" is not a string but the number"),
        ("[1, 2]", "latitude '[1' is not a number"),
    ])
    func refused(line: String, expected: String) {
        let message = failure(line)
        #expect(message.contains(expected), "\(message)")
    }

    @Test("a reader that counts lines puts the number first; a huge garbled line is cut short in the message")
    func lineNumbers() {
        #expect(PositionLineError("latitude '91.0' must be between -90 and 90 degrees", line: 17).description
                == "line 17: latitude '91.0' must be between -90 and 90 degrees")
        let message = failure(String(repeating: "x", count: 10_000))
        #expect(message.count < 200 && message.contains("..."))
    }

    @Test("JSON strings with escapes and non-ASCII text are read, not just skipped")
    func jsonStrings() throws {
        let fix = try fix(#"{"device":"/dev/gps\u00e9\"é😀\ud83d\ude00","class":"T\u0050V","mode":3,"lat":1.5,"lon":-2.5,"tag":"\n"}"#)
        #expect(fix.position.latitude == 1.5)
        #expect(failure(#"{"class":"TPV","mode":3,"lat":1,"lon":2,"x":"\ud83d"}"#).contains("lone surrogate"))
        #expect(failure(#"{"class":"TPV","mode":3,"lat":1,"lon":2,"x":"\q"}"#).contains("unknown escape"))
        let deep = "{\"class\":\"SKY\",\"x\":" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
        #expect(failure(deep).contains("nested too deeply"))
    }
}
