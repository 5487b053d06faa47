package fetch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// noUsernsEnv marks the run of the test binary, as nobody, where nobody
// cannot create user namespaces (runAsNobody's noUserns).
const noUsernsEnv = "VIGIL_TEST_NO_USERNS"

// runAsNobody runs the test named of this test binary again as the user
// nobody, from a copy of the binary that user can run, and passes,
// fails or skips as it does; it skips, saying why, where the copy cannot
// be made or run as nobody. With noUserns, the binary runs in a user
// namespace of its own, mapping root and nobody to themselves, whose
// limit of user namespaces is 0 (user.max_user_namespaces, a limit of each
// namespace): there nobody cannot create one, and Chromium has no sandbox
// to start in; noUsernsEnv is set.
func runAsNobody(t *testing.T, name string, noUserns bool) {
	t.Helper()
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Skipf("no user nobody to render as (%v): the sandboxed render is not tested", err)
	}
	uid, err1 := strconv.ParseUint(nobody.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(nobody.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		t.Skipf("user nobody has ids %q and %q: the sandboxed render is not tested", nobody.Uid, nobody.Gid)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A directory of its own that nobody can enter (t.TempDir's are
	// root's alone), with a home that nobody owns.
	dir, err := os.MkdirTemp("", "vigil-sandbox-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	home := filepath.Join(dir, "home")
	bin := filepath.Join(dir, "fetch.test")
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(home, int(uid), int(gid)); err != nil {
		t.Skipf("cannot give nobody a home (%v): the sandboxed render is not tested", err)
	}
	if err := copyExecutable(self, bin); err != nil {
		t.Fatal(err)
	}
	args := []string{"-test.run=^" + name + "$", "-test.v", "-test.count=1", "-test.timeout=3m"}
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}}
	if noUserns {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			t.Skipf("no setpriv to run the test binary as nobody in a user namespace: %v", err)
		}
		script := fmt.Sprintf(`echo 0 > /proc/sys/user/max_user_namespaces && exec %s --reuid=%d --regid=%d --clear-groups "$@"`, setpriv, uid, gid)
		cmd = exec.Command("/bin/sh", append([]string{"-c", script, "sh", bin}, args...)...)
		all := []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: int(max(uid, gid)) + 1}}
		cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER, UidMappings: all, GidMappings: all, GidMappingsEnableSetgroups: true}
	}
	cmd.Dir = home
	// nobody writes nowhere but its home (no coverage files of a
	// -cover run, which root's directory would refuse).
	var environ []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOCOVERDIR=") {
			environ = append(environ, kv)
		}
	}
	cmd.Env = append(environ, "HOME="+home, "TMPDIR="+home, "XDG_CONFIG_HOME="+home, "XDG_CACHE_HOME="+home)
	if noUserns {
		cmd.Env = append(cmd.Env, noUsernsEnv+"=1")
	}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err != nil && !errors.As(err, &exit):
		t.Skipf("cannot run the test binary as nobody (%v): the sandboxed render is not tested", err)
	case !bytes.Contains(out, []byte("=== RUN   "+name)):
		t.Skipf("the test binary did not run as nobody (%v): the sandboxed render is not tested:\n%s", err, out)
	case bytes.Contains(out, []byte("--- SKIP: "+name)):
		t.Skipf("as nobody: %s", out)
	case err != nil || !bytes.Contains(out, []byte("--- PASS: "+name)):
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	t.Logf("as nobody:\n%s", out)
}

// copyExecutable copies the file at from to a new file at to, which
// every user may read and run.
func copyExecutable(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
