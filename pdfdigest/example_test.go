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
