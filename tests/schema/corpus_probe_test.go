package schema_test

import "strings"

// probeCorpus is the probe table's cases (tests/probe): every field kind
// and rule the generator takes, each case the minimal valid call of its
// tool with one thing changed.
func probeCorpus() []argCase {
	var out []argCase
	for _, tc := range []struct {
		tool  string
		base  obj
		cases func(b obj) []argCase
	}{
		{"probe_numbers", obj{{"count", `1`}, {"confirm", `true`}, {"ratio", `0.5`}, {"ids", `[7]`}}, probeNumbers},
		{"probe_strings", obj{
			{"code", `"PR-1+2!"`}, {"wide", `"abcdef"`}, {"header", `"X-Trace"`}, {"value", `"v"`},
			{"addr", `"10.0.0.1"`}, {"tid", `"0123456789abcdef0123456789ABCDEF"`},
			{"uid", `"01234567-89ab-cdef-0123-456789abcdef"`}, {"hostport", `"example.com:443"`},
			{"greek", `"αβγ"`}, {"shout", `"ok"`}, {"title", `"Crash"`}, {"label", `"x"`},
		}, probeStrings},
		{"probe_times", obj{{"at", `"2024-05-01T12:00:00Z"`}}, probeTimes},
		{"probe_maps", obj{{"levels", `{"db":"high"}`}}, probeMaps},
		{"probe_choices", obj{{"fast", `true`}}, probeChoices},
	} {
		out = append(out, argCase{tool: tc.tool, name: "minimal valid call", args: tc.base.String(), valid: true})
		for _, c := range tc.cases(tc.base) {
			c.tool = tc.tool
			out = append(out, c)
		}
	}
	return out
}

func probeNumbers(b obj) []argCase {
	return []argCase{
		{name: "every kind at its limits", args: b.set("i32", `-2147483648`, "u32", `4294967295`, "i64", `-9223372036854775808`,
			"u64", `18446744073709551615`, "f32", `3.4028234663852886e38`, "f64", `-1.7976931348623157e308`).String(), valid: true},
		{name: "int32 above its range", args: b.set("i32", `2147483648`).String()},
		{name: "uint32 negative", args: b.set("u32", `-1`).String()},
		{name: "uint32 above its range", args: b.set("u32", `4294967296`).String()},
		{name: "int64 above its range", args: b.set("i64", `9223372036854775808`).String()},
		{name: "uint64 above its range", args: b.set("u64", `18446744073709551616`).String()},
		{name: "float above its range", args: b.set("f32", `1e39`).String()},
		{name: "float just above its range", args: b.set("f32", `3.5e38`).String()},
		{name: "double above its range", args: b.set("f64", `1e309`).String()},
		{name: "required count 0", args: b.set("count", `0`).String()},
		{name: "required count negative", args: b.set("count", `-3`).String(), valid: true},
		{name: "required count missing", args: b.without("count").String()},
		{name: "required confirm false", args: b.set("confirm", `false`).String()},
		{name: "outside below the gap", args: b.set("outside", `9`).String(), valid: true},
		{name: "outside in the gap", args: b.set("outside", `15`).String()},
		{name: "outside at the gap's ends", args: b.set("outside", `10`).String()},
		{name: "outside above the gap", args: b.set("outside", `21`).String(), valid: true},
		{name: "batch zero is ignored", args: b.set("batch", `0`).String(), valid: true},
		{name: "batch below its minimum", args: b.set("batch", `3`).String()},
		{name: "batch in range", args: b.set("batch", `5`).String(), valid: true},
		{name: "batch above its maximum", args: b.set("batch", `51`).String()},
		{name: "ratio at its exclusive end", args: b.set("ratio", `1`).String()},
		{name: "ratio zero", args: b.set("ratio", `0`).String()},
		{name: "ids empty", args: b.set("ids", `[]`).String()},
		{name: "ids with a zero", args: b.set("ids", `[1, 0]`).String()},
	}
}

func probeStrings(b obj) []argCase {
	return []argCase{
		{name: "code without its prefix", args: b.set("code", `"XR-1+2!"`).String()},
		{name: "code without its suffix", args: b.set("code", `"PR-1+2"`).String()},
		{name: "code without the contained text", args: b.set("code", `"PR-12!"`).String()},
		{name: "code with regex syntax elsewhere", args: b.set("code", `"PR-(.*)+!"`).String(), valid: true},
		{name: "note with the excluded text", args: b.set("note", `"cost $5"`).String()},
		{name: "note at max bytes", args: b.set("note", `"éééééé"`).String(), valid: true},
		{name: "note over max bytes in fewer characters", args: b.set("note", `"ééééééé"`).String()},
		{name: "wide with the wrong byte length", args: b.set("wide", `"abcd"`).String()},
		{name: "wide in three two-byte characters", args: b.set("wide", `"ééé"`).String(), valid: true},
		{name: "memo under min bytes", args: b.set("memo", `"é"`).String()},
		{name: "memo at min bytes in two characters", args: b.set("memo", `"éé"`).String(), valid: true},
		{name: "memo empty is ignored", args: b.set("memo", `""`).String(), valid: true},
		{name: "header name with a space", args: b.set("header", `"X Trace"`).String()},
		{name: "header name pseudo", args: b.set("header", `":path"`).String(), valid: true},
		{name: "header value loose allows tab", args: b.set("value", `"a\tb"`).String(), valid: true},
		{name: "header value loose refuses newline", args: b.set("value", `"a\nb"`).String()},
		{name: "header value loose refuses empty", args: b.set("value", `""`).String()},
		{name: "addr ipv6", args: b.set("addr", `"2001:db8::1"`).String(), valid: true},
		{name: "addr not an address", args: b.set("addr", `"10.0.0"`).String()},
		{name: "ref relative", args: b.set("ref", `"../a?b#c"`).String(), valid: true},
		{name: "tid with dashes", args: b.set("tid", `"01234567-89ab-cdef-0123-456789abcdef"`).String()},
		{name: "uid without dashes", args: b.set("uid", `"0123456789abcdef0123456789abcdef"`).String()},
		{name: "uid as a URN", args: b.set("uid", `"urn:uuid:01234567-89ab-cdef-0123-456789abcdef"`).String()},
		{name: "hostport without a port", args: b.set("hostport", `"example.com"`).String()},
		{name: "greek with latin", args: b.set("greek", `"αβc"`).String()},
		{name: "greek in the astral plane", args: b.set("greek", `"𐅀"`).String(), valid: true},
		{name: "shout upper case", args: b.set("shout", `"OK"`).String(), valid: true},
		{name: "shout with the kelvin sign", args: b.set("shout", `"o\u212a"`).String(), valid: true},
		{name: "shout with a trailing newline", args: b.set("shout", `"ok\n"`).String()},
		{name: "title no-break spaces only", args: b.set("title", `"\u00a0\u00a0"`).String()},
		{name: "title at max length in astral characters", args: b.set("title", repeat("😀", 20)).String(), valid: true},
		{name: "nick empty is ignored", args: b.set("nick", `""`).String(), valid: true},
		{name: "nick too short", args: b.set("nick", `"ab"`).String()},
		{name: "label empty", args: b.set("label", `""`).String()},
	}
}

func probeTimes(b obj) []argCase {
	return []argCase{
		{name: "at with an offset and fraction", args: b.set("at", `"2024-05-01T12:00:00.123456789+02:00"`).String(), valid: true},
		{name: "at in lower case", args: b.set("at", `"2024-05-01t12:00:00z"`).String(), valid: true},
		{name: "at without a zone", args: b.set("at", `"2024-05-01T12:00:00"`).String()},
		{name: "at a date only", args: b.set("at", `"2024-05-01"`).String()},
		{name: "at month 13", args: b.set("at", `"2024-13-01T00:00:00Z"`).String()},
		{name: "at a leap second", args: b.set("at", `"2016-12-31T23:59:60Z"`).String()},
		{name: "at a number", args: b.set("at", `1714564800`).String()},
		{name: "at missing", args: b.without("at").String()},
		{name: "wait in range", args: b.set("wait", `"1.5s"`).String(), valid: true},
		{name: "wait below its minimum", args: b.set("wait", `"0.5s"`).String()},
		{name: "wait above its maximum", args: b.set("wait", `"3601s"`).String()},
		{name: "wait in minutes", args: b.set("wait", `"5m"`).String()},
		{name: "wait with ten fractional digits", args: b.set("wait", `"1.0000000001s"`).String()},
		{name: "wait beyond a Duration", args: b.set("wait", `"315576000001s"`).String()},
		{name: "limit set", args: b.set("limit", `10`).String(), valid: true},
		{name: "limit null", args: b.set("limit", `null`).String(), valid: true},
		{name: "limit zero", args: b.set("limit", `0`).String()},
		{name: "limit a string", args: b.set("limit", `"10"`).String()},
		{name: "memo empty", args: b.set("memo", `""`).String(), valid: true},
		{name: "memo null", args: b.set("memo", `null`).String(), valid: true},
		{name: "flag false", args: b.set("flag", `false`).String(), valid: true},
		{name: "blob six bytes", args: b.set("blob", `"AAECAwQF"`).String(), valid: true},
		{name: "blob seven bytes", args: b.set("blob", `"AAECAwQFBg=="`).String()},
		{name: "blob without padding", args: b.set("blob", `"QQ"`).String()},
		{name: "blob URL-safe alphabet", args: b.set("blob", `"-_8="`).String()},
		{name: "blob with a line break", args: b.set("blob", `"AAEC\nAwQF"`).String()},
		{name: "stamps three", args: b.set("stamps", `["2024-01-01T00:00:00Z","2024-01-02T00:00:00Z","2024-01-03T00:00:00Z"]`).String(), valid: true},
		{name: "stamps four", args: b.set("stamps", `["2024-01-01T00:00:00Z","2024-01-02T00:00:00Z","2024-01-03T00:00:00Z","2024-01-04T00:00:00Z"]`).String()},
		{name: "raw bytes", args: b.set("raw", `"AA=="`).String(), valid: true},
		{name: "raw null", args: b.set("raw", `null`).String(), valid: true},
	}
}

func probeMaps(b obj) []argCase {
	return []argCase{
		{name: "tags", args: b.set("tags", `{"team":"core","area":"ui"}`).String(), valid: true},
		{name: "tags key against its pattern", args: b.set("tags", `{"Team":"core"}`).String()},
		{name: "tags value too long", args: b.set("tags", `{"team":"platform"}`).String()},
		{name: "tags too many", args: b.set("tags", `{"a":"1","b":"2","c":"3","d":"4"}`).String()},
		{name: "tags value null", args: b.set("tags", `{"team":null}`).String()},
		{name: "tags value a number", args: b.set("tags", `{"team":1}`).String()},
		{name: "tags an array", args: b.set("tags", `["core"]`).String()},
		{name: "entries", args: b.set("entries", `{"1":{"body":"a"},"-2":{"body":"b"}}`).String(), valid: true},
		{name: "entries key not a number", args: b.set("entries", `{"one":{"body":"a"}}`).String()},
		{name: "entries key beyond int32", args: b.set("entries", `{"2147483648":{"body":"a"}}`).String()},
		{name: "entries value breaking its rules", args: b.set("entries", `{"1":{"body":""}}`).String()},
		{name: "entries value with an unknown key", args: b.set("entries", `{"1":{"body":"a","x":1}}`).String()},
		{name: "levels empty", args: b.set("levels", `{}`).String()},
		{name: "levels unknown value", args: b.set("levels", `{"db":"medium"}`).String()},
		{name: "waits", args: b.set("waits", `{"true":"1s","false":"2.5s"}`).String(), valid: true},
		{name: "waits key not a bool", args: b.set("waits", `{"yes":"1s"}`).String()},
		{name: "waits value not a duration", args: b.set("waits", `{"true":"1 second"}`).String()},
		{name: "blobs", args: b.set("blobs", `{"a":"AQID"}`).String(), valid: true},
		{name: "blobs value not base64", args: b.set("blobs", `{"a":"***"}`).String()},
	}
}

func probeChoices(b obj) []argCase {
	return []argCase{
		{name: "one target", args: b.set("name", `"n"`).String(), valid: true},
		{name: "another target", args: b.set("entry", `{"body":"b"}`).String(), valid: true},
		{name: "two targets", args: b.set("name", `"n"`, "id", `3`).String()},
		{name: "three targets", args: b.set("name", `"n"`, "id", `3`, "entry", `{"body":"b"}`).String()},
		{name: "target null beside another", args: b.set("name", `null`, "id", `3`).String(), valid: true},
		{name: "target breaking its rule", args: b.set("name", `""`).String()},
		{name: "mode false still chooses", args: b.set("fast", `false`).String(), valid: true},
		{name: "mode missing", args: b.without("fast").String()},
		{name: "mode twice", args: b.set("careful", `true`).String()},
		{name: "choices", args: b.set("choices", `[{"text":"a"},{"number":2},{}]`).String(), valid: true},
		{name: "choice with both", args: b.set("choices", `[{"text":"a","number":2}]`).String()},
		{name: "deprecated field hidden", args: b.set("old_name", `"x"`).String()},
		{name: "deprecated field exposed", args: b.set("legacy", `"x"`).String(), valid: true},
		{name: "unknown parameter", args: strings.Replace(b.String(), "{", `{"bogus":1,`, 1)},
	}
}
