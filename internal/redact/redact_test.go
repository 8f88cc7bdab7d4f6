package redact_test

import (
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/internal/testkit"
)

// A GitHub token in the format GitHub documents, and one with characters
// URL encoding changes (an OAuth access token may carry '+', '/', '=').
const (
	ghToken    = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	oauthToken = "lin_oauth_aB3+xY9/zQ7=pL2&mN8 kR5?"
)

func TestEveryEchoIsRedacted(t *testing.T) {
	r := redact.New(ghToken, oauthToken)
	redacted, total := 0, 0
	for _, secret := range []string{ghToken, oauthToken} {
		for name, echo := range testkit.Echoes(secret) {
			total++
			text := "Bad credentials: «" + echo + "» — try again"
			got := r.String(text)
			if leaked := testkit.Leak(secret, got); leaked != "" {
				t.Errorf("%s: %q still shows %q", name, got, leaked)
				continue
			}
			if !strings.HasPrefix(got, "Bad credentials: «") || !strings.HasSuffix(got, "» — try again") || !utf8.ValidString(got) {
				t.Errorf("%s: the text around the credential was damaged: %q", name, got)
				continue
			}
			redacted++
		}
	}
	t.Logf("credential encodings redacted: %d of %d", redacted, total)
}

// Text that merely resembles a credential is left alone: a token kind
// named in prose, long runs of one digit, ordinary words and numbers.
func TestOrdinaryTextIsKept(t *testing.T) {
	r := redact.New(ghToken, "lin_api_00000000000000000000000000000000xyz1", "github_pat_11ABCDEFG0abcdefghijklmnop")
	for _, text := range []string{
		"Create a token (ghp_ or github_pat_ prefix) and a Linear key (lin_api_...).",
		"padding 00000000000000000000 and aaaaaaaaaaaa",
		"Commit 9f3ab05 fixed it; see #1347 and https://github.com/octocat/Hello-World/pull/1350",
		"héllo wörld 😀",
		"",
	} {
		if got := r.String(text); got != text {
			t.Errorf("%q became %q", text, got)
		}
	}
}

// The floor is Window (6) bytes: a piece of a credential that long is
// redacted, whatever it looks like (here a 7-byte piece that could pass
// for a short commit id), and one shorter is not.
func TestShortChunks(t *testing.T) {
	r := redact.New(ghToken)
	for in, want := range map[string]string{
		"Commit 16c7e42 fixed it":       "Commit " + redact.Marker + " fixed it",
		"Commit 16c7e4 fixed it":        "Commit " + redact.Marker + " fixed it",
		"Commit 16c7e fixed it":         "Commit 16c7e fixed it",
		"ids 16C7e and 2F292 and 0c838": "ids 16C7e and 2F292 and 0c838",
	} {
		if got := r.String(in); got != want {
			t.Errorf("%q = %q, want %q", in, got, want)
		}
	}
}

// Encoded forms are redacted where they stand, and the text around them
// is kept byte for byte: offsets in the decoded views map back.
func TestEncodedFormsKeepTheirSurroundings(t *testing.T) {
	r := redact.New(ghToken)
	full := ""
	for i := range len(ghToken) {
		full += fmt.Sprintf("%%%02x", ghToken[i])
	}
	fw := strings.Map(func(c rune) rune { return c + 0xFEE0 }, ghToken)
	for in, want := range map[string]string{
		"a%41b " + full + " 100% &amp; done": "a%41b " + redact.Marker + " 100% &amp; done",
		"«" + fw + "» ｆｕｌｌ":                  "«" + redact.Marker + "» ｆｕｌｌ",
		"x g-h-p-_-1-6-C-7-e-4-2-F y a-b":    "x " + redact.Marker + " y a-b",
		"&lt;&#x67;&#104;p_16C7e42F&gt;":     "&lt;" + redact.Marker + "&gt;",
	} {
		if got := r.String(in); got != want {
			t.Errorf("%q = %q, want %q", in, got, want)
		}
	}
}

// Found by attacking the views: spellings a model reads as the token
// that the first decoded view missed. Each is redacted, and the text
// around it kept.
func TestAdversarialSpellings(t *testing.T) {
	r := redact.New(ghToken)
	each := func(format string) string {
		out := ""
		for i := range len(ghToken) {
			out += fmt.Sprintf(format, ghToken[i])
		}
		return out
	}
	for name, echo := range map[string]string{
		"double percent-encoding":    each("%%25%02X"),
		"entity of a percent-escape": each("&#37;%02x"),
		"zero-width space between":   strings.Join(strings.Split(ghToken, ""), "\u200b"),
		"soft hyphen between":        strings.Join(strings.Split(ghToken, ""), "\u00ad"),
		"word joiner between":        strings.Join(strings.Split(ghToken, ""), "\u2060"),
		"combining mark on each":     strings.Join(strings.Split(ghToken, ""), "\u0301"),
		"zero-width, then dashes":    strings.Join(strings.Split(ghToken, ""), "\u200b-"),
		"percent-encoded separators": strings.Join(strings.Split(ghToken, ""), "%2D"),
		"entities with spaces":       each("&#%d; "),
	} {
		text := "before «" + echo + "» after"
		got := r.String(text)
		if l := testkit.Leak(ghToken, got); l != "" || strings.Contains(got, ghToken[4:10]) || !strings.Contains(got, redact.Marker) {
			t.Errorf("%s: %q redacts to %q", name, text, got)
			continue
		}
		if !strings.HasPrefix(got, "before «") || !strings.HasSuffix(got, "» after") {
			t.Errorf("%s: the surroundings were damaged: %q", name, got)
		}
	}
}

// A piece cut inside the public prefix takes the whole prefix with it,
// and spans it meets merge.
func TestPieceInsideThePrefix(t *testing.T) {
	r := redact.New("glpat-Vn7kQ2xM9pT4wZ1rL8cB3yH6fG5dJ0sA2", ghToken)
	for in, want := range map[string]string{
		"bad GLPAT-VN7KQ2 x":          "bad " + redact.Marker + " x",
		"bad pat-Vn7kQ2xM y":          "bad " + redact.Marker + " y",
		"glpat-Vn7kQ2 glpat-Vn7kQ2":   redact.Marker + " " + redact.Marker,
		"hp_16C7e42F and p_16C7e42F.": redact.Marker + " and " + redact.Marker + ".",
		"a glpat- token":              "a glpat- token",
	} {
		if got := r.String(in); got != want {
			t.Errorf("%q = %q, want %q", in, got, want)
		}
	}
}

// A whole credential goes with its public prefix, and a credential too
// short or too uniform for windows is still matched whole.
func TestWholeForms(t *testing.T) {
	r := redact.New("lin_api_Xy7Kq2Lm9Pz4Rt6Vw1Bn3Cd5", "s3cr3t", "zzzzzzzzzzzzzzzzzzzz")
	for in, want := range map[string]string{
		"key=lin_api_Xy7Kq2Lm9Pz4Rt6Vw1Bn3Cd5;":   "key=" + redact.Marker + ";",
		"key=LIN_API_XY7KQ2LM9PZ4RT6VW1BN3CD5":    "key=" + redact.Marker,
		"pw S3CR3T and s3cr3t":                    "pw " + redact.Marker + " and " + redact.Marker,
		"zzzzzzzzzzzzzzzzzzzz and zzzzzzzz":       redact.Marker + " and zzzzzzzz",
		"é" + "lin_api_Xy7Kq2Lm9Pz4Rt6Vw1Bn3Cd5é": "é" + redact.Marker + "é",
	} {
		if got := r.String(in); got != want {
			t.Errorf("%q = %q, want %q", in, got, want)
		}
	}
	var none *redact.Redactor
	if none.String(ghToken) != ghToken || !redact.New("").Empty() {
		t.Error("a nil or empty Redactor changed text")
	}
}

// FuzzRedact: whatever the text, what comes out shows no piece of the
// credential a window long, and valid UTF-8 stays valid.
func FuzzRedact(f *testing.F) {
	for _, e := range testkit.Echoes(ghToken) {
		f.Add(e)
	}
	f.Add("plain text ünïcödé")
	f.Add("%" + "&#x;" + "&#1114112;" + "&" + "a-" + "ｇ-ｈ-")
	f.Add("g-h-p-_-1-6%43%37&#101;&#x34;２F292c")
	f.Add("%2567%2568&#37;70_\u200b1\u200b6\u0301C7e42F")
	f.Add("&#x200b;&#173;%E2%80%8B%%%25%2")
	r := redact.New(ghToken)
	f.Fuzz(func(t *testing.T, text string) {
		got := r.String(text)
		if l := testkit.Leak(ghToken, got); l != "" {
			t.Fatalf("%q redacts to %q, which still shows %q", text, got, l)
		}
		if utf8.ValidString(text) && !utf8.ValidString(got) {
			t.Fatalf("%q redacts to invalid UTF-8 %q", text, got)
		}
		if !strings.Contains(got, redact.Marker) && got != text {
			t.Fatalf("%q changed to %q without a marker", text, got)
		}
	})
}

// benchSecrets and benchBody are what a gateway redacts: three forge
// credentials, and a 1 MB issue body that quotes none of them.
var (
	benchSecrets = []string{ghToken, oauthToken, "lin_api_Xy7Kq2Lm9Pz4Rt6Vw1Bn3Cd5"}
	benchBody    = strings.Repeat("An ordinary issue body, with some code: `x := f(y)`. ", 20000)
)

func BenchmarkRedact(b *testing.B) {
	r := redact.New(benchSecrets...)
	b.SetBytes(int64(len(benchBody)))
	for b.Loop() {
		r.String(benchBody)
	}
}

// BenchmarkVerbatimBaseline is what redaction cost before: replacing each
// credential verbatim, and nothing else.
func BenchmarkVerbatimBaseline(b *testing.B) {
	b.SetBytes(int64(len(benchBody)))
	for b.Loop() {
		s := benchBody
		for _, secret := range benchSecrets {
			s = strings.ReplaceAll(s, secret, redact.Marker)
		}
	}
}

// The log handler redacts the message and every attribute, nested or
// bound in advance, whatever its type.
func TestHandler(t *testing.T) {
	var buf strings.Builder
	r := redact.New(ghToken)
	log := slog.New(redact.NewHandler(slog.NewTextHandler(&buf, nil), r)).With("bound", strings.ToUpper(ghToken))
	echo := base64.StdEncoding.EncodeToString([]byte("x-access-token:" + ghToken))
	log.Info("answer "+ghToken, "header", "Basic "+echo, "err", errors.New("bad "+ghToken[:20]),
		slog.Group("g", "inner", url.QueryEscape(ghToken), "n", 42))
	out := buf.String()
	if l := testkit.Leak(ghToken, out); l != "" || strings.Contains(out, echo[8:30]) {
		t.Fatalf("the log line leaks the credential:\n%s", out)
	}
	for _, want := range []string{"msg=\"answer [REDACTED]\"", "bound=[REDACTED]", "g.n=42", "err=\"bad [REDACTED]\""} {
		if !strings.Contains(out, want) {
			t.Errorf("log line lacks %s:\n%s", want, out)
		}
	}
}
