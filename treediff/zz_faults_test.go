package treediff

import (
	"bytes"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/vigil-web/vigil/markup"
)

func rus() syscall.Rusage {
	var r syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r)
	return r
}

func TestZZFaults(t *testing.T) {
	for _, dir := range []string{"/tmp/pairs/r1", "/tmp/pairs/r10"} {
		ob, _ := os.ReadFile(dir + "/old.xml")
		nb, _ := os.ReadFile(dir + "/new.xml")
		for run := 0; run < 5; run++ {
			of, _ := markup.ParseXMLFlat(bytes.NewReader(ob), nil)
			nf, _ := markup.ParseXMLFlat(bytes.NewReader(nb), nil)
			runtime.GC()
			a := rus()
			if _, err := DiffFlat(of, nf, &Options{}); err != nil {
				t.Fatal(err)
			}
			b := rus()
			ut := time.Duration(b.Utime.Nano() - a.Utime.Nano())
			st := time.Duration(b.Stime.Nano() - a.Stime.Nano())
			t.Logf("%s run %d: user %v sys %v minflt %d", dir, run, ut, st, b.Minflt-a.Minflt)
		}
	}
}
