package treediff

import (
	"bytes"
	"os"
	"testing"

	"github.com/vigil-web/vigil/markup"
)

func TestZZCachegrind(t *testing.T) {
	dir := os.Getenv("ZZ_DIR")
	if dir == "" {
		t.Skip()
	}
	ob, _ := os.ReadFile(dir + "/old.xml")
	nb, _ := os.ReadFile(dir + "/new.xml")
	of, err := markup.ParseXMLFlat(bytes.NewReader(ob), nil)
	if err != nil {
		t.Fatal(err)
	}
	nf, err := markup.ParseXMLFlat(bytes.NewReader(nb), nil)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("ZZ_DIFF") != "" {
		if _, err := DiffFlat(of, nf, &Options{}); err != nil {
			t.Fatal(err)
		}
	}
}
