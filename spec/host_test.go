package spec

import (
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/idna"
)

// TestASCIIHost: a host name written in Unicode, or percent-encoded as
// url.Parse reads it, becomes its ASCII (punycode) form, its port and the
// rest of the URL kept; an ASCII name, an IPv6 literal and a name IDNA
// refuses but DNS takes stay as they are; a Unicode name IDNA refuses is
// an error naming it, the URL unchanged.
func TestASCIIHost(t *testing.T) {
	tests := []struct {
		name, in, want, err string
	}{
		{name: "Unicode", in: "http://bücher.example/a?q#f", want: "http://xn--bcher-kva.example/a?q#f"},
		{name: "Unicode with port", in: "http://bücher.example:8080/", want: "http://xn--bcher-kva.example:8080/"},
		{name: "upper case", in: "http://BÜCHER.Example/", want: "http://xn--bcher-kva.example/"},
		{name: "percent-encoded", in: "http://b%C3%BCcher.example/", want: "http://xn--bcher-kva.example/"},
		{name: "credentials kept", in: "http://u@bücher.example/", want: "http://u@xn--bcher-kva.example/"},
		{name: "full-width dot", in: "http://bücher\uff0eexample/", want: "http://xn--bcher-kva.example/"},
		{name: "ASCII", in: "http://Example.COM:81/", want: "http://Example.COM:81/"},
		{name: "punycode", in: "http://xn--bcher-kva.example/", want: "http://xn--bcher-kva.example/"},
		{name: "ASCII IDNA refuses", in: "http://my_host.example/", want: "http://my_host.example/"},
		{name: "IPv6", in: "http://[::1]:8080/", want: "http://[::1]:8080/"},
		{name: "no host", in: "mailto:a@b.example", want: "mailto:a@b.example"},
		// An underscore is taken in a Unicode name as in an ASCII one:
		// "my_host.xn--bcher-kva.example" was taken and its Unicode
		// spelling refused (IDNA's STD3 rules).
		{name: "underscore label", in: "http://my_host.bücher.example/", want: "http://my_host.xn--bcher-kva.example/"},
		{name: "underscore in a Unicode label", in: "http://bü_cher.example/", want: "http://xn--b_cher-3ya.example/"},
		{name: "full-width underscore", in: "http://bü\uff3fcher.example/", want: "http://xn--b_cher-3ya.example/"},
		// The rest of IDNA's Lookup profile holds: hyphens, code points,
		// punycode, joiners, BiDi, and STD3's other ASCII rules.
		{name: "refused: trailing hyphen", in: "http://bücher-.example/", err: `host "bücher-.example": idna`},
		{name: "refused: hyphens in third and fourth places", in: "http://ab--bücher.example/", err: `host "ab--bücher.example": idna`},
		{name: "refused: disallowed code point", in: "http://bü\ue000cher.example/", err: `host "bü\ue000cher.example": idna`},
		{name: "refused: invalid punycode", in: "http://xn--a.bücher.example/", err: `host "xn--a.bücher.example": idna`},
		{name: "refused: punycode of ASCII", in: "http://xn--abc-.bücher.example/", err: `host "xn--abc-.bücher.example": idna`},
		{name: "refused: joiner out of context", in: "http://a\u200db.bücher.example/", err: `host "a\u200db.bücher.example": idna`},
		{name: "refused: BiDi", in: "http://aא.bücher.example/", err: `host "aא.bücher.example": idna`},
		{name: "refused: asterisk", in: "http://a*b.bücher.example/", err: `host "a*b.bücher.example": `},
		{name: "refused: no-break space", in: "http://a%C2%A0b.bücher.example/", err: `host "a\u00a0b.bücher.example": `},
		{name: "refused: parenthesised digit", in: "http://\u2474.bücher.example/", err: `host "⑴.bücher.example": `},
		{name: "refused: leading hyphen", in: "http://-bücher.example/", err: `host "-bücher.example": idna`},
		// STD3's rules refuse three letters that are not ASCII, whose
		// decompositions hold '=', '<' and '>': without the rules they
		// were taken, "a≠b" spelt "xn--ab-miv", written composed or not.
		{name: "refused: not equal to", in: "http://a≠b.bücher.example/", err: `host "a≠b.bücher.example": U+2260`},
		{name: "refused: not equal to, decomposed", in: "http://a=\u0338b.bücher.example/", err: "host \"a=\u0338b.bücher.example\": U+2260"},
		{name: "refused: not less-than", in: "http://a\u226eb.bücher.example/", err: "host \"a\u226eb.bücher.example\": U+226E"},
		{name: "refused: not greater-than", in: "http://a\u226fb.bücher.example/", err: "host \"a\u226fb.bücher.example\": U+226F"},
		{name: "refused: not equal to in punycode", in: "http://xn--ab-miv.bücher.example/", err: `host "xn--ab-miv.bücher.example": `},
		// Bytes that are not UTF-8 are no name: IDNA read them as
		// U+FFFD, a letter it refuses written out, and two hosts were
		// one made-up host, "xn--bcher-lm43a.example".
		{name: "refused: percent-encoded, not UTF-8", in: "http://b%FFcher.example/", err: `host "b\xffcher.example": not UTF-8`},
		{name: "refused: a UTF-8 sequence cut short", in: "http://b%C3cher.example/", err: `host "b\xc3cher.example": not UTF-8`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := url.Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			before := *u
			err = ASCIIHost(u)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ASCIIHost(%q) error %v, want one with %q", tt.in, err, tt.err)
				}
				if *u != before {
					t.Errorf("ASCIIHost(%q) changed the URL it refused: %v", tt.in, u)
				}
				return
			}
			if err != nil {
				t.Fatalf("ASCIIHost(%q): %v", tt.in, err)
			}
			if got := u.String(); got != tt.want {
				t.Errorf("ASCIIHost(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestLookupProfile: ASCIIHost's profile is IDNA's Lookup profile but for
// the STD3 rules (std3Refused keeps all of them but the underscore's).
func TestLookupProfile(t *testing.T) {
	want := strings.Replace(idna.Lookup.String(), ":UseSTD3Rules", "", 1)
	if got := lookup.String(); got != want || want == idna.Lookup.String() {
		t.Errorf("lookup profile %s, want %s (idna.Lookup %s)", got, want, idna.Lookup)
	}
}

// TestHostKey: one host has one key however it is spelt: in Unicode or
// punycode, in upper or lower case, with a trailing dot or without, with
// its scheme's default port written out or not; another port is another
// host. A name IDNA refuses, or no name, is an error, with the key of the
// name as written.
func TestHostKey(t *testing.T) {
	tests := []struct {
		name, in, want, err string
	}{
		{name: "plain", in: "http://example.com/a", want: "example.com"},
		{name: "upper case", in: "HTTP://Example.COM/a", want: "example.com"},
		{name: "trailing dot", in: "http://example.com./a", want: "example.com"},
		// Every trailing dot, as vigil.CanonicalURL trims them: the
		// host of the URL it stores.
		{name: "trailing dots", in: "http://example.com../a", want: "example.com"},
		{name: "Unicode trailing dots", in: "http://bücher.example../", want: "xn--bcher-kva.example"},
		{name: "only dots", in: "http://../a", want: "", err: "no host"},
		{name: "upper case and trailing dot", in: "https://EXAMPLE.com.:443/", want: "example.com"},
		{name: "Unicode", in: "http://bücher.example/", want: "xn--bcher-kva.example"},
		{name: "Unicode upper case", in: "http://BÜCHER.example/", want: "xn--bcher-kva.example"},
		{name: "percent-encoded", in: "http://b%C3%BCcher.example/", want: "xn--bcher-kva.example"},
		{name: "punycode", in: "http://xn--bcher-kva.example/", want: "xn--bcher-kva.example"},
		{name: "punycode upper case", in: "http://XN--BCHER-KVA.example/", want: "xn--bcher-kva.example"},
		{name: "Unicode trailing dot", in: "http://bücher.example./", want: "xn--bcher-kva.example"},
		{name: "underscore", in: "http://my_host.bücher.example/", want: "my_host.xn--bcher-kva.example"},
		{name: "http :80", in: "http://example.com:80/", want: "example.com"},
		{name: "https :443", in: "https://example.com:443/", want: "example.com"},
		{name: "scheme in upper case", in: "HTTPS://example.com:443/", want: "example.com"},
		{name: "http :443", in: "http://example.com:443/", want: "example.com:443"},
		{name: "https :80", in: "https://example.com:80/", want: "example.com:80"},
		{name: "another port", in: "http://example.com:8080/", want: "example.com:8080"},
		{name: "another port, trailing dot", in: "http://Example.com.:8080/", want: "example.com:8080"},
		{name: "another scheme keeps its port", in: "ftp://example.com:21/", want: "example.com:21"},
		{name: "empty port", in: "http://example.com:/", want: "example.com"},
		{name: "IPv4", in: "http://127.0.0.1:80/", want: "127.0.0.1"},
		{name: "IPv6", in: "http://[2001:DB8::1]/", want: "[2001:db8::1]"},
		{name: "IPv6 default port", in: "http://[2001:db8::1]:80/", want: "[2001:db8::1]"},
		{name: "IPv6 with port", in: "https://[2001:db8::1]:8443/", want: "[2001:db8::1]:8443"},
		{name: "refused by IDNA", in: "http://-Bücher.example.:80/", want: "-bücher.example", err: `host "-Bücher.example.": idna`},
		// Lower-casing reads the bytes that are not UTF-8 as U+FFFD.
		{name: "not UTF-8", in: "http://b%FFcher.example/", want: "b\ufffdcher.example", err: "not UTF-8"},
		{name: "no host", in: "http:///a", want: "", err: "no host"},
		{name: "no name", in: "http://:8080/a", want: ":8080", err: "no host"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := url.Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			before := *u
			got, err := HostKey(u)
			if *u != before {
				t.Errorf("HostKey(%q) changed the URL: %v", tt.in, u)
			}
			if got != tt.want {
				t.Errorf("HostKey(%q) = %q, want %q", tt.in, got, tt.want)
			}
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("HostKey(%q): %v", tt.in, err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("HostKey(%q) error %v, want one with %q", tt.in, err, tt.err)
			}
		})
	}
}

// TestASCIIHostSTD3: a Unicode host holding any one letter is taken
// exactly when IDNA's Lookup profile takes it, but for an underscore
// (and a letter mapped to one): the STD3 rules hold for every other
// letter, ASCII or not.
func TestASCIIHostSTD3(t *testing.T) {
	for r := rune(0x21); r <= 0x2ffff; r++ {
		if 0xd800 <= r && r <= 0xdfff {
			continue // no letter
		}
		name := "ü" + string(r) + "b.example"
		ascii, lerr := idna.Lookup.ToASCII(name)
		u := &url.URL{Scheme: "http", Host: name}
		err := ASCIIHost(u)
		if lerr == nil && err != nil {
			t.Errorf("%U: ASCIIHost refused %q, idna.Lookup took it as %q: %v", r, name, ascii, err)
		}
		if lerr != nil && err == nil && !strings.Contains(u.Host, "_") {
			t.Errorf("%U: ASCIIHost took %q as %q, idna.Lookup refused it: %v", r, name, u.Host, lerr)
		}
	}
}

// TestHostNameDNSRules: a host name DNS refuses, which no fetch can
// reach, is refused where a URL is read from a user (NormalizeURL,
// CheckHostName), in ASCII and in Unicode alike (its punycode form
// measured): an empty label, a label longer than 63 bytes, a name longer
// than 253. A trailing dot, an absolute name, is no empty label; IP
// literals have no labels. They were taken, for fetches DNS refused.
func TestHostNameDNSRules(t *testing.T) {
	label := func(c string, n int) string { return strings.Repeat(c, n) }
	// 4 labels of 63 bytes and 3 dots: 255 bytes; less 2, 253.
	name253 := label("a", 63) + "." + label("b", 63) + "." + label("c", 63) + "." + label("d", 61)
	// "ü" and 58 "a" are "xn--" and 62 bytes in punycode: 66 in all.
	longU := "ü" + label("a", 58)
	// "ü" is "xn--tda" in punycode: 7 bytes for 2, 254 in all.
	longName := "ü." + label("a", 63) + "." + label("b", 63) + "." + label("c", 63) + "." + label("d", 54)
	for _, tt := range []struct {
		name, in, want, err string
	}{
		{name: "empty label", in: "http://a..example/", err: `invalid URL "http://a..example/": host "a..example" has an empty label`},
		{name: "empty first label", in: ".a.example/x", err: `invalid URL ".a.example/x": host ".a.example" has an empty label`},
		{name: "two trailing dots", in: "http://a.example../", err: `host "a.example.." has an empty label`},
		{name: "a dot alone", in: "http://./", err: `host "." has an empty label`},
		{name: "empty label with port", in: "http://a..example:8080/", err: `host "a..example" has an empty label`},
		{name: "Unicode empty label", in: "http://bücher..example/", err: `host "bücher..example" has an empty label`},
		{name: "full-width dots", in: "http://bücher\uff0e\uff0eexample/", err: "host \"bücher\uff0e\uff0eexample\" has an empty label"},
		{name: "label of 64 bytes", in: "http://" + label("a", 64) + ".example/", err: `has a label of 64 bytes: DNS takes at most 63`},
		{name: "label of 63 bytes", in: "http://" + label("a", 63) + ".example/", want: "http://" + label("a", 63) + ".example/"},
		// An ASCII label of a Unicode name is measured as it is written.
		{name: "ASCII label of a Unicode name", in: "http://bücher." + label("a", 64) + ".example/", err: `has a label of 64 bytes: DNS takes at most 63`},
		{name: "Unicode label long in punycode", in: "http://" + longU + ".example/", err: `has a label of 66 bytes in punycode: DNS takes at most 63`},
		{name: "name of 254 bytes", in: "http://" + name253 + "d/", err: `is 254 bytes long: DNS takes at most 253`},
		{name: "name of 253 bytes", in: "http://" + name253 + "/", want: "http://" + name253 + "/"},
		{name: "name of 253 bytes and a trailing dot", in: "http://" + name253 + "./", want: "http://" + name253 + "./"},
		{name: "Unicode name long in punycode", in: "http://" + longName + "/", err: `is 254 bytes long in punycode: DNS takes at most 253`},
		{name: "trailing dot", in: "http://a.example./", want: "http://a.example./"},
		{name: "Unicode trailing dot", in: "http://bücher.example./", want: "http://xn--bcher-kva.example./"},
		{name: "IPv4", in: "http://127.0.0.1:8080/", want: "http://127.0.0.1:8080/"},
		{name: "IPv6", in: "http://[2001:db8::1]/", want: "http://[2001:db8::1]/"},
		{name: "IPv6 with a zone", in: "http://[fe80::1%25en0]/", want: "http://[fe80::1%25en0]/"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NormalizeURL(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("NormalizeURL(%q) = %q, %v; want an error with %q", tt.in, got, err, tt.err)
				}
			} else if err != nil || got != tt.want {
				t.Errorf("NormalizeURL(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
			// CheckHostName says the same of the URL, and leaves it as
			// it is.
			raw := tt.in
			if !strings.Contains(raw, "://") {
				raw = "http://" + raw
			}
			u, err := url.Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			before := *u
			err = CheckHostName(u)
			if *u != before {
				t.Errorf("CheckHostName(%q) changed the URL: %v", tt.in, u)
			}
			if msg := strings.TrimPrefix(tt.err, `invalid URL "`+tt.in+`": `); tt.err != "" && (err == nil || !strings.Contains(err.Error(), msg)) || tt.err == "" && err != nil {
				t.Errorf("CheckHostName(%q): %v, want an error with %q", tt.in, err, msg)
			}
		})
	}
	// A URL stored before the rules still loads (normalizeURL not strict).
	if got, err := normalizeURL("http://a..example/", false); err != nil || got != "http://a..example/" {
		t.Errorf("stored URL: %q, %v", got, err)
	}
	// CheckHostName refuses what ASCIIHost refuses.
	if err := CheckHostName(&url.URL{Scheme: "http", Host: "-bücher.example"}); err == nil || !strings.Contains(err.Error(), `host "-bücher.example": idna`) {
		t.Errorf("a host IDNA refuses: %v", err)
	}
}

// TestCheckASCIIHost: CheckASCIIHost does what CheckHostName and then
// ASCIIHost did, its callers' two calls: the same error word for word and
// the URL unchanged for a host either refuses, the same ASCII host for
// one both take.
func TestCheckASCIIHost(t *testing.T) {
	long := strings.Repeat("a", 64)
	for _, tt := range []struct {
		name, in, want, err string
	}{
		{name: "Unicode", in: "http://bücher.example:8080/a?q#f", want: "http://xn--bcher-kva.example:8080/a?q#f"},
		{name: "percent-encoded", in: "http://b%C3%BCcher.example/", want: "http://xn--bcher-kva.example/"},
		{name: "Unicode trailing dot", in: "http://BÜCHER.example./", want: "http://xn--bcher-kva.example./"},
		{name: "empty port", in: "http://bücher.example:/", want: "http://xn--bcher-kva.example:/"},
		{name: "ASCII", in: "http://My_Host.Example:81/", want: "http://My_Host.Example:81/"},
		{name: "IPv6", in: "http://[::1]:8080/", want: "http://[::1]:8080/"},
		{name: "no host", in: "mailto:a@b.example", want: "mailto:a@b.example"},
		{name: "IDNA refuses", in: "http://-bücher.example/", err: `host "-bücher.example": idna: invalid label "-bücher"`},
		{name: "STD3 refuses", in: "http://a*bü.example/", err: `host "a*bü.example": '*' is not a letter, digit, hyphen or underscore`},
		{name: "not UTF-8", in: "http://b%FFcher.example/", err: "host \"b\\xffcher.example\": not UTF-8"},
		{name: "empty label", in: "http://bücher..example/", err: `host "bücher..example" has an empty label`},
		{name: "ASCII empty label", in: "http://a..example/", err: `host "a..example" has an empty label`},
		{name: "long label", in: "http://bücher." + long + ".example/", err: `host "bücher.` + long[:33] + `"... has a label of 64 bytes: DNS takes at most 63`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u, err := url.Parse(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			// The two calls CheckASCIIHost replaces, on a copy.
			two := *u
			twoErr := CheckHostName(&two)
			if twoErr == nil {
				twoErr = ASCIIHost(&two)
			}
			before := *u
			err = CheckASCIIHost(u)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err || twoErr == nil || twoErr.Error() != tt.err {
					t.Errorf("CheckASCIIHost(%q) = %v, CheckHostName and ASCIIHost %v; want %q", tt.in, err, twoErr, tt.err)
				}
				if *u != before {
					t.Errorf("CheckASCIIHost(%q) changed the URL: %v", tt.in, u)
				}
				return
			}
			if err != nil || twoErr != nil || u.String() != tt.want || two.String() != tt.want {
				t.Errorf("CheckASCIIHost(%q) = %q, %v; CheckHostName and ASCIIHost %q, %v; want %q", tt.in, u, err, &two, twoErr, tt.want)
			}
		})
	}
}
