/* Unit test of ir/config.h: ASSERT and UNREACHABLE stop a debug or UBSan build with a message
 * naming the place, and cost nothing in a release build (the condition is not evaluated, and the
 * code after UNREACHABLE goes on). Each check runs in a child process. */
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ir/ir.h"
#include "tests/unit/tap.h"

static int evaluated;

static bool side_effect(void) {
  evaluated++;
  return false;
}

/* Runs body in a child; returns its wait status and what it wrote on stderr. */
static int in_child(void (*body)(void), char *err, size_t n) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    body();
    _exit(evaluated == 0 ? 0 : 3);
  }
  close(fds[1]);
  size_t len = 0;
  ssize_t got;
  while (len + 1 < n && (got = read(fds[0], err + len, n - 1 - len)) > 0) len += (size_t)got;
  err[len] = 0;
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

static void failing_assert(void) { ASSERT(side_effect()); }

static void reached(void) {
  UNREACHABLE("the test reached it");
}

int main(void) {
  GC_INIT();
  char err[512];
  int status = in_child(failing_assert, err, sizeof err);
  if (IR_CHECKS) {
    tap_ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "a failed ASSERT aborts (checks are on: no NDEBUG)");
    tap_ok(strstr(err, "relay: internal error: side_effect() (") && strstr(err, "test_config.c:") &&
               strstr(err, "in failing_assert)"),
           "and says what failed and where: %s", err);
  } else {
    tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "release: ASSERT does not evaluate its condition");
    tap_ok(err[0] == 0, "release: and prints nothing");
  }
  status = in_child(reached, err, sizeof err);
  if (IR_CHECKS) {
    tap_ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT && strstr(err, "unreachable: the test reached it"),
           "UNREACHABLE aborts with its reason: %s", err);
  } else {
    tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "release: the code after UNREACHABLE goes on");
  }
  return tap_done();
}
