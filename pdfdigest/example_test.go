package pdfdigest_test

import (
	"fmt"
	"os"

	"github.com/vigil-web/vigil/pdfdigest"
)

// Two runs of Ghostscript on one page, at different times, hash the same;
// a file that does not parse is an error that says where and what.
func ExampleSum() {
	first, err := os.ReadFile("testdata/pdf/ghostscript-1.pdf")
	if err != nil {
		panic(err)
	}
	second, err := os.ReadFile("testdata/pdf/ghostscript-2.pdf")
	if err != nil {
		panic(err)
	}
	a, _ := pdfdigest.Sum(first, nil)
	b, _ := pdfdigest.Sum(second, nil)
	fmt.Println("same bytes:", string(first) == string(second))
	fmt.Println("same sum:", a == b)

	_, err = pdfdigest.Sum([]byte("%PDF-1.4\n1 0 obj\n<< /Title (open >>\nendobj\n"), nil)
	fmt.Println(err)
	// Output:
	// same bytes: false
	// same sum: true
	// pdf syntax at byte 27: a string that does not end: expected ")"
}

// Two runs of qpdf encrypting one document with AES-256 and an empty user
// password (new keys, vectors and /ID) hash the same; a file that opens
// with a user password only is an error that says so, and a stream under
// a filter Sum does not decode is named.
func ExampleSumResult() {
	first, err := os.ReadFile("testdata/encrypted/encrypted-aes-256-1.pdf")
	if err != nil {
		panic(err)
	}
	second, err := os.ReadFile("testdata/encrypted/encrypted-aes-256-2.pdf")
	if err != nil {
		panic(err)
	}
	a, _ := pdfdigest.SumResult(first, nil)
	b, _ := pdfdigest.SumResult(second, nil)
	fmt.Println("same sum:", a.Sum == b.Sum)

	locked, err := os.ReadFile("testdata/encrypted/encrypted-user-password.pdf")
	if err != nil {
		panic(err)
	}
	_, err = pdfdigest.SumResult(locked, nil)
	fmt.Println(err)

	res, _ := pdfdigest.SumResult([]byte("%PDF-1.5\n8 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /RunLengthDecode /Length 2 >>\nstream\nxx\nendstream\nendobj\n"), nil)
	fmt.Println(res.Undecoded)
	// Output:
	// same sum: true
	// pdf encrypted: it opens with a user password only
	// [object stream 8 0: filter /RunLengthDecode not decoded]
}
