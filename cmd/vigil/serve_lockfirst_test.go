package main

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeRefusedBeforeListening: a vigil serve refused its data
// directory never listens at its address: no client's connection is
// accepted, to be reset as it exits. It listened first, then took the
// lock: a client that connected meanwhile (while the lock was waited
// for, up to 2 seconds when looks at it are in the way) had its
// connection accepted by the system and reset. The daemon that holds the
// directory runs on, still answering.
func TestServeRefusedBeforeListening(t *testing.T) {
	for _, tc := range []struct {
		name string
		hold func(t *testing.T, data string) (check func())
	}{
		{"held by a serve", func(t *testing.T, data string) func() {
			first := startDaemon(t, data)
			return func() {
				if !first.alive() {
					t.Fatalf("the first vigil serve ended: %s", first.stderr.String())
				}
				conn, err := net.Dial("tcp", first.addr)
				if err != nil {
					t.Fatalf("the first vigil serve no longer answers: %v", err)
				}
				conn.Close()
			}
		}},
		{"a look in the way", func(t *testing.T, data string) func() {
			// A look at the lock (lockFileHeld) that lasts: the start
			// waits for it, then is refused.
			if err := os.MkdirAll(data, 0o750); err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(filepath.Join(data, serveLockFile), os.O_RDWR|os.O_CREATE, 0o640)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
			if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH); err != nil {
				t.Fatal(err)
			}
			return func() {}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "data")
			check := tc.hold(t, data)
			free, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			addr := free.Addr().String()
			free.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			second := exec.CommandContext(ctx, vigilBinary(t), "serve", "--data", data, "--addr", addr)
			second.Env = append(os.Environ(), "VIGIL_DATA=", "VIGIL_POSTGRES_DSN=")
			var out syncBuffer
			second.Stdout, second.Stderr = &out, &out
			if err := second.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- second.Wait() }()
			accepted := 0
			var waitErr error
		dial:
			for {
				select {
				case waitErr = <-exited:
					break dial
				default:
				}
				if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
					accepted++
					conn.Close()
				}
				time.Sleep(time.Millisecond)
			}
			var exit *exec.ExitError
			if !errors.As(waitErr, &exit) || exit.ExitCode() != exitError || !strings.Contains(out.String(), "is running on the data directory "+data) {
				t.Errorf("second vigil serve: %v, %s; want exit %d, refused the directory", waitErr, out.String(), exitError)
			}
			if accepted > 0 {
				t.Errorf("the refused vigil serve accepted %d connections at %s before it exited", accepted, addr)
			}
			check()
		})
	}
}
