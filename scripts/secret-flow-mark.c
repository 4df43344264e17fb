/* The secret-flow check's marker for the shipped binary (scripts/secret-flow.sh): preloaded
 * into `parcrypt rsa decrypt` run under Valgrind memcheck (LD_PRELOAD), it wraps read(2) and,
 * when the bytes just read come from the key file, marks the key's secret bytes undefined
 * (memcheck's VALGRIND_SET_VBITS, bit by bit) in the buffer the program read them into, before
 * the program looks at them. Nothing is compiled into parcrypt: the binary checked is the
 * binary shipped. Used only under Valgrind (outside it the client requests do nothing).
 *
 * Environment: SECRET_FLOW_KEY, the key file; SECRET_FLOW_SPEC, a file of lines
 * "OFFSET LENGTH VBITS" (decimal file offset and length, VBITS the V-bit byte each of those
 * bytes gets: 0xff all secret, 0x7f a Base64 character's low seven bits, a partial mask for
 * the top byte of a value whose bit length stays public), written by
 * `examples/secret_flow --mark-spec KEY`. At exit it prints to stderr how many bytes it
 * marked, which the script compares with the spec: a check that marked nothing fails.
 *
 * Build: cc -shared -fPIC -O1 -o secret-flow-mark.so secret-flow-mark.c -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <valgrind/memcheck.h>

#define MAX_RANGES 4096

static long long start[MAX_RANGES], len[MAX_RANGES];
static unsigned char vbits[MAX_RANGES];
static int ranges = -1; /* -1: not loaded yet */
static dev_t key_dev;
static ino_t key_ino;
static long long marked;

static void load(void) {
  ranges = 0;
  const char *key = getenv("SECRET_FLOW_KEY"), *spec = getenv("SECRET_FLOW_SPEC");
  struct stat st;
  if (!key || !spec || stat(key, &st) != 0) return;
  key_dev = st.st_dev;
  key_ino = st.st_ino;
  FILE *f = fopen(spec, "r");
  if (!f) return;
  unsigned v;
  while (ranges < MAX_RANGES &&
         fscanf(f, "%lld %lld %x", &start[ranges], &len[ranges], &v) == 3) {
    vbits[ranges++] = (unsigned char)v;
  }
  fclose(f);
}

ssize_t read(int fd, void *buf, size_t count) {
  static ssize_t (*real)(int, void *, size_t);
  if (!real) real = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
  if (ranges < 0) load();
  off_t at = ranges > 0 ? lseek(fd, 0, SEEK_CUR) : -1;
  ssize_t got = real(fd, buf, count);
  struct stat st;
  if (got <= 0 || at < 0 || fstat(fd, &st) != 0 || st.st_dev != key_dev ||
      st.st_ino != key_ino)
    return got;
  for (int r = 0; r < ranges; r++) {
    long long lo = start[r] > at ? start[r] : at;
    long long hi = start[r] + len[r] < at + got ? start[r] + len[r] : at + got;
    for (long long i = lo; i < hi; i++) {
      unsigned char v = vbits[r];
      /* 1 when Valgrind took the request (the V bits of one byte at a time). */
      if (VALGRIND_SET_VBITS((char *)buf + (i - at), &v, 1) == 1) marked++;
    }
  }
  return got;
}

__attribute__((destructor)) static void report(void) {
  if (ranges > 0) fprintf(stderr, "secret-flow-mark: %lld bytes marked\n", marked);
}
