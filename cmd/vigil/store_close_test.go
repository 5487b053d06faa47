package main

import (
	"errors"
	"testing"

	"github.com/vigil-web/vigil"
)

// closeFailing is a store whose Close fails; nothing else of it is called.
type closeFailing struct {
	vigil.Store
	err error
}

func (s closeFailing) Close() error { return s.err }

// TestCloseStore: a Close that fails fails the command, and after an
// error of the command's own both are returned (vigil serve logged the
// close error on a line of its own and returned only its own).
func TestCloseStore(t *testing.T) {
	own, closing := errors.New("the daemon's own"), errors.New("checkpoint failed")
	for _, tc := range []struct {
		name      string
		code      int
		err       error
		closeErr  error
		wantCode  int
		wantErrs  []error
		wantNoErr bool
	}{
		{name: "both fine", code: exitOK, wantCode: exitOK, wantNoErr: true},
		{name: "close fails", code: exitOK, closeErr: closing, wantCode: exitError, wantErrs: []error{closing}},
		{name: "own error kept", code: exitError, err: own, wantCode: exitError, wantErrs: []error{own}},
		{name: "both said", code: exitError, err: own, closeErr: closing, wantCode: exitError, wantErrs: []error{own, closing}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, err := tc.code, tc.err
			closeStore(closeFailing{err: tc.closeErr}, &code, &err)
			if code != tc.wantCode {
				t.Errorf("code %d, want %d", code, tc.wantCode)
			}
			if tc.wantNoErr && err != nil {
				t.Errorf("error %v, want none", err)
			}
			for _, want := range tc.wantErrs {
				if !errors.Is(err, want) {
					t.Errorf("error %v does not hold %v", err, want)
				}
			}
		})
	}
}
