package vigil_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

func TestGo(t *testing.T) {
	boom := errors.New("boom")
	for _, tc := range []struct {
		name  string
		f     func() error
		want  string
		stack bool
	}{
		{"returns", func() error { return boom }, "boom", false},
		{"panics", func() error { panic("send https://hooks.example.org/T0/SECRET failed") }, "panic: send https://hooks.example.org/… failed", true},
		{"goexit", func() error { runtime.Goexit(); return nil }, vigil.ErrGoexit.Error(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := <-vigil.Go(tc.f)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "SECRET") {
				t.Errorf("the panic's secret shows: %v", err)
			}
			stack := vigil.PanicStack(err)
			if tc.stack != (len(stack) > 0) {
				t.Errorf("stack %q, want one: %v", stack, tc.stack)
			}
			if tc.stack && !strings.Contains(string(stack), "panic_test.go") {
				t.Errorf("the stack does not name where it panicked:\n%s", stack)
			}
		})
	}
}

func TestProtect(t *testing.T) {
	err := vigil.Protect(func() error { panic(errors.New("index out of range")) })
	var pe *vigil.PanicError
	if !errors.As(err, &pe) || err.Error() != "panic: index out of range" || len(pe.Stack) == 0 {
		t.Fatalf("error %#v", err)
	}
	if err := vigil.Protect(func() error { return nil }); err != nil {
		t.Fatalf("no panic: %v", err)
	}
}
