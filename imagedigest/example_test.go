package imagedigest_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"

	"github.com/vigil-web/vigil/imagedigest"
)

// A PNG written twice, the second time with a tIME chunk of the moment,
// hashes the same; a file cut short is an error that says where and
// what.
func ExampleSum() {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 4, 4))); err != nil {
		panic(err)
	}
	plain := b.Bytes()
	// IHDR ends at byte 33: a tIME chunk of 2026-11-30 13:35:48 after it.
	tIME := []byte("\x00\x00\x00\x07tIME\x07\xea\x0b\x1e\x0d\x23\x30")
	tIME = binary.BigEndian.AppendUint32(tIME, crc32.ChecksumIEEE(tIME[4:]))
	dated := append(append(append([]byte(nil), plain[:33]...), tIME...), plain[33:]...)

	a, _ := imagedigest.Sum(plain)
	c, err := imagedigest.Sum(dated)
	fmt.Println("same bytes:", bytes.Equal(plain, dated))
	fmt.Println("same sum:", a == c, err)

	_, err = imagedigest.Sum(plain[:45])
	fmt.Println(err)
	// Output:
	// same bytes: false
	// same sum: true <nil>
	// png at byte 33: chunk IDAT of 19 bytes runs past the end of the file
}
