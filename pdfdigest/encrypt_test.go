package pdfdigest

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSumEncrypted: files qpdf encrypted with an empty user password
// (testdata/encrypted/encrypted-*: RC4 of 40 and 128 bits, revisions 2 and 3;
// AES of 128 bits, revision 4; AES of 256 bits, revisions 5 and 6), from
// qpdf-objstm-1 (-1, and -again: the same file encrypted again), -2 (its
// dates of another run) and -word (a word changed), in object streams or
// (-table-) not, linearized (-linearized-: its hint stream encrypted) or
// not: the same document hashes the same, however its key, its /ID and
// its AES vectors were drawn; another word, otherwise.
func TestSumEncrypted(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"encrypted-rc4-40-1", "encrypted-rc4-40-2", true},
		{"encrypted-rc4-40-1", "encrypted-rc4-40-word", false},
		{"encrypted-rc4-128-1", "encrypted-rc4-128-2", true},
		{"encrypted-rc4-128-1", "encrypted-rc4-128-word", false},
		{"encrypted-rc4-128-table-1", "encrypted-rc4-128-table-2", true},
		{"encrypted-rc4-128-table-1", "encrypted-rc4-128-table-word", false},
		{"encrypted-aes-128-1", "encrypted-aes-128-again", true},
		{"encrypted-aes-128-1", "encrypted-aes-128-2", true},
		{"encrypted-aes-128-1", "encrypted-aes-128-word", false},
		{"encrypted-aes-256-1", "encrypted-aes-256-2", true},
		{"encrypted-aes-256-1", "encrypted-aes-256-word", false},
		{"encrypted-aes-256-table-1", "encrypted-aes-256-table-2", true},
		{"encrypted-aes-256-table-1", "encrypted-aes-256-table-word", false},
		{"encrypted-aes-256-r5-1", "encrypted-aes-256-r5-2", true},
		{"encrypted-aes-256-linearized-1", "encrypted-aes-256-linearized-2", true},
		{"encrypted-aes-256-linearized-1", "encrypted-aes-256-linearized-word", false},
		// Another algorithm or revision, the same plaintext: the
		// /Encrypt dictionary's /V, /R and /Length, which are hashed,
		// differ.
		{"encrypted-aes-256-r5-1", "encrypted-aes-256-1", false},
		{"encrypted-aes-128-1", "encrypted-aes-256-1", false},
	} {
		t.Run(tc.a+"/"+tc.b, func(t *testing.T) {
			a, b := readEncrypted(t, tc.a), readEncrypted(t, tc.b)
			if bytes.Equal(a, b) {
				t.Fatal("the test's two PDFs are the same bytes")
			}
			ra, err := SumResult(a, nil)
			if err != nil {
				t.Fatal(err)
			}
			rb, err := SumResult(b, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(ra.Undecoded)+len(rb.Undecoded) > 0 {
				t.Errorf("undecoded %q, %q; want none", ra.Undecoded, rb.Undecoded)
			}
			if (ra.Sum == rb.Sum) != tc.same {
				t.Errorf("hashes %x and %x; want them equal: %v", ra.Sum, rb.Sum, tc.same)
			}
		})
	}
}

// readEncrypted returns testdata/encrypted/name.pdf: apart from
// testdata/pdf, which BenchmarkSum reads whole, and one of which Sum
// refuses.
func readEncrypted(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "encrypted", name+".pdf"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSumEncryptedRefused: a file Sum cannot decrypt (it needs a user
// password, or another security handler) is an *EncryptedError that says
// why: the caller hashes it as its bytes.
func TestSumEncryptedRefused(t *testing.T) {
	encrypted := func(encrypt string) []byte {
		return []byte("%PDF-1.4\n1 0 obj\n" + encrypt + "\nendobj\n2 0 obj\n<< /Title (x) >>\nendobj\ntrailer\n<< /Root 2 0 R /Encrypt 1 0 R /ID [<00112233> <00112233>] >>\n")
	}
	for _, tc := range []struct {
		name string
		pdf  []byte
		want string
	}{
		{"user password", readEncrypted(t, "encrypted-user-password"), "pdf encrypted: it opens with a user password only"},
		{"public key", encrypted("<< /Filter /Adobe.PubSec /V 4 /R 4 >>"), "pdf encrypted: security handler /Adobe.PubSec not decrypted"},
		{"revision", encrypted("<< /Filter /Standard /V 2 /R 7 /O <00> /U <00> /P -4 >>"), "pdf encrypted: /R 7 not decrypted"},
		{"no dictionary", []byte("%PDF-1.4\ntrailer\n<< /Encrypt 9 0 R >>\n"), "pdf encrypted: its /Encrypt dictionary 9 0 R is not in the file"},
		{"no dictionary, a comment in its reference", []byte("%PDF-1.4\ntrailer\n<< /Encrypt 9 %\x1bc\n0 R >>\n"),
			`pdf encrypted: its /Encrypt dictionary 9 %\x1bc\n0 R is not in the file`},
		{"short /U", encrypted("<< /Filter /Standard /V 5 /R 6 /O <00> /U <00> /P -4 >>"), "pdf encrypted: /U of 1 bytes, want 48"},
		{"unknown crypt filter", encrypted("<< /Filter /Standard /V 4 /R 4 /Length 128 /CF << /StdCF << /CFM /Foo >> >> /StmF /StdCF /StrF /StdCF /O <00> /U <00> /P -4 >>"),
			"pdf encrypted: crypt filter /Foo not decrypted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Sum(tc.pdf, nil)
			var ee *EncryptedError
			if !errors.As(err, &ee) {
				t.Fatalf("error %v (%T), want an *EncryptedError", err, err)
			}
			if err.Error() != tc.want {
				t.Errorf("error %q, want %q", err, tc.want)
			}
		})
	}
}

// TestSumEncryptedSignature: a signature dictionary's /Contents, which
// ISO 32000-1 §7.6.2 leaves in the clear in an encrypted file, is hashed
// as it is, not "decrypted": an AES file's signature is no string that
// does not decrypt (SumResult would name it, and a crawl's note tell the
// PDF changed at every crawl), and another signature hashes otherwise.
func TestSumEncryptedSignature(t *testing.T) {
	signed := func(contents string) []byte {
		b := readEncrypted(t, "encrypted-aes-128-1")
		return append(b, "\n9 0 obj\n<< /Type /Sig /Filter /Adobe.PPKLite /ByteRange [0 10 20 30] /Contents <"+contents+"> >>\nendobj\n"...)
	}
	zeros := strings.Repeat("00", 64)
	res, err := SumResult(signed(zeros), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Undecoded) > 0 {
		t.Errorf("undecoded %q, want none", res.Undecoded)
	}
	if other := mustSum(t, signed("01"+zeros[2:]), nil); other == res.Sum {
		t.Errorf("another signature hashes the same, %x", other)
	}
}

// TestSumEncryptedCryptFilterLength: a file of V 4 whose RC4 key's length
// is given by its crypt filter alone (/CF /StdCF /Length, in bytes or in
// bits, as writers differ: up to 32 it is bytes), not by the /Encrypt
// dictionary, is decrypted: two runs of it hash the same, another title
// otherwise; and one whose /Length there, as the /Encrypt dictionary's,
// is the key's opens as before.
func TestSumEncryptedCryptFilterLength(t *testing.T) {
	run := func(keyBytes int, length, cfLength string) (first, second, other []byte) {
		r := rc4Run{KeyBytes: keyBytes, Length: length, CFLength: cfLength, ID: "0123456789abcdef", Title: "Report", Created: "D:20240101120000Z", Text: "Hello"}
		first = writeRC4PDF(r)
		r.ID, r.Created = "fedcba9876543210", "D:20251130093015+01'00'"
		second = writeRC4PDF(r)
		r.Title = "Report 2"
		other = writeRC4PDF(r)
		return first, second, other
	}
	for _, tc := range []struct {
		name             string
		keyBytes         int
		length, cfLength string
	}{
		{"128 bits, the filter's length in bytes", 16, "", "/Length 16"},
		{"128 bits, the filter's length in bits", 16, "", "/Length 128"},
		{"40 bits, the filter's length in bytes", 5, "", "/Length 5"},
		{"40 bits, the filter's length in bits", 5, "", "/Length 40"},
		{"96 bits, the filter's length in bytes", 12, "", "/Length 12"},
		{"the /Encrypt dictionary's length, not the filter's", 16, "/Length 128", "/Length 5"},
		{"the /Encrypt dictionary's length, wrong, and the filter's", 16, "/Length 40", "/Length 16"},
		{"the /Encrypt dictionary's length alone", 16, "/Length 128", ""},
		{"no length: 40 bits", 5, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first, second, other := run(tc.keyBytes, tc.length, tc.cfLength)
			ra, err := SumResult(first, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(ra.Undecoded) > 0 {
				t.Errorf("undecoded %q, want none", ra.Undecoded)
			}
			if rb := mustSum(t, second, nil); rb != ra.Sum {
				t.Errorf("another run: hashes %x and %x, want them equal", ra.Sum, rb)
			}
			if ro := mustSum(t, other, nil); ro == ra.Sum {
				t.Errorf("another title: hash %x, want another", ro)
			}
		})
	}
}

// TestSumEncryptedCryptFilterLengthRefused: a crypt filter's /Length that
// is no key of 40 to 128 bits in steps of 8, of a file whose key is not
// of the /Encrypt dictionary's length (or 40 bits), is an
// *EncryptedError that says so.
func TestSumEncryptedCryptFilterLengthRefused(t *testing.T) {
	for _, tc := range []struct {
		cfLength string
		want     string
	}{
		{"/Length 4", "pdf encrypted: crypt filter /StdCF's /Length 4 is no key of 40 to 128 bits in steps of 8"},
		{"/Length 20", "pdf encrypted: crypt filter /StdCF's /Length 20 is no key of 40 to 128 bits in steps of 8"},
		{"/Length 44", "pdf encrypted: crypt filter /StdCF's /Length 44 is no key of 40 to 128 bits in steps of 8"},
		{"/Length 256", "pdf encrypted: crypt filter /StdCF's /Length 256 is no key of 40 to 128 bits in steps of 8"},
		{"/Length -16", "pdf encrypted: crypt filter /StdCF's /Length -16 is no key of 40 to 128 bits in steps of 8"},
		{"/Length 8", "pdf encrypted: it opens with a user password only"}, // 64 bits: not the key's
	} {
		t.Run(tc.cfLength, func(t *testing.T) {
			pdf := writeRC4PDF(rc4Run{KeyBytes: 16, CFLength: tc.cfLength, ID: "0123456789abcdef", Title: "Report", Created: "D:20240101120000Z", Text: "Hello"})
			_, err := Sum(pdf, nil)
			var ee *EncryptedError
			if !errors.As(err, &ee) {
				t.Fatalf("error %v (%T), want an *EncryptedError", err, err)
			}
			if err.Error() != tc.want {
				t.Errorf("error %q, want %q", err, tc.want)
			}
		})
	}
}

// TestSumEncryptedPerms: a file of revision 6 whose /Perms does not
// decrypt under its file key to a block whose bytes 9 to 11 are "adb"
// (ISO 32000-2 §7.6.4.4.12, Algorithm 13), or that has none, is an
// *EncryptedError: its encryption is not understood, and the caller
// hashes it as its bytes. The files qpdf wrote (TestSumEncrypted) check.
func TestSumEncryptedPerms(t *testing.T) {
	b := readEncrypted(t, "encrypted-aes-256-1")
	perms := regexp.MustCompile(`/Perms <[0-9a-fA-F]{32}>`)
	if len(perms.FindAll(b, -1)) != 1 {
		t.Fatal("encrypted-aes-256-1 has not one /Perms of 16 bytes in hex")
	}
	for _, tc := range []struct {
		name, perms, want string
	}{
		{"not adb", "/Perms <000102030405060708090a0b0c0d0e0f>", "pdf encrypted: its /Perms does not decrypt to bytes 9 to 11 \"adb\" (ISO 32000-2 Algorithm 13)"},
		{"none", "/Foo <000102030405060708090a0b0c0d0e0f>", "pdf encrypted: /Perms of 0 bytes, want 16"},
		{"short", "/Perms <000102030405060708090a0b0c0d0e>", "pdf encrypted: /Perms of 15 bytes, want 16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Sum(perms.ReplaceAll(b, []byte(tc.perms)), nil)
			var ee *EncryptedError
			if !errors.As(err, &ee) {
				t.Fatalf("error %v (%T), want an *EncryptedError", err, err)
			}
			if err.Error() != tc.want {
				t.Errorf("error %q, want %q", err, tc.want)
			}
		})
	}
}

// TestSumEncryptDictionaryReference: the trailer's reference to the
// /Encrypt dictionary is read by its tokens, a comment between them
// aside: the dictionary (5 1 obj) is known as the one in the clear, so
// its /O and /U, drawn from the /ID, are left out and two runs hash the
// same.
func TestSumEncryptDictionaryReference(t *testing.T) {
	for _, ref := range []string{"5 1 R", "5 % the dictionary\n1 R"} {
		t.Run(ref, func(t *testing.T) {
			r := rc4Run{KeyBytes: 16, Length: "/Length 128", EncryptGen: 1, EncryptRef: ref, ID: "0123456789abcdef", Title: "Report", Created: "D:20240101120000Z", Text: "Hello"}
			first := mustSum(t, writeRC4PDF(r), nil)
			r.ID = "fedcba9876543210"
			if second := mustSum(t, writeRC4PDF(r), nil); second != first {
				t.Errorf("another run: hashes %x and %x, want them equal", first, second)
			}
		})
	}
}
