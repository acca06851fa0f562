// core/input_file.cpp — see input_file.h.
#include "core/input_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"

namespace strata {
namespace {

// Closes the descriptor on every way out.
struct Fd {
    int fd;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

std::string mib(size_t bytes) {
    return bytes >= (size_t(1) << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes) + " bytes";
}

}  // namespace

std::string readInputFile(const std::string& path, const std::string& what, size_t maxStreamBytes, size_t maxFileBytes,
                          int fifoWaitMs) {
    const std::string cannotOpen = path + ": cannot open " + what + ": ",
                      cannot = path + ": cannot read " + what + ": ";
    if (path.empty()) throw Error("cannot open " + what + ": the file name is empty");
    // O_NONBLOCK: opening a FIFO nobody writes must not wait for a writer.
    Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
    if (f.fd < 0) throw Error(cannotOpen + std::strerror(errno));
    struct stat st {};
    if (::fstat(f.fd, &st) != 0) throw Error(cannot + std::strerror(errno));
    const bool regular = S_ISREG(st.st_mode);
    if (S_ISDIR(st.st_mode)) throw Error(cannotOpen + "it is a directory");
    if (!regular && !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
        throw Error(cannotOpen + "not a regular file, FIFO or character device");
    // A FIFO opened without waiting reads as empty until a writer has come:
    // wait for its first bytes (or its end), a while, not for ever.
    if (S_ISFIFO(st.st_mode)) {
        pollfd p{f.fd, POLLIN, 0};
        int r;
        do r = ::poll(&p, 1, fifoWaitMs);
        while (r < 0 && errno == EINTR);
        if (r < 0) throw Error(cannot + std::strerror(errno));
        if (r == 0)
            throw Error(cannot + "it is a FIFO that gave no data within " + std::to_string(fifoWaitMs) +
                        " ms of being opened (nothing writing to it?)");
    }
    // Reads block again (a pipe's writer may be slower than this reader).
    const int flags = ::fcntl(f.fd, F_GETFL);
    if (flags < 0 || ::fcntl(f.fd, F_SETFL, flags & ~O_NONBLOCK) != 0) throw Error(cannot + std::strerror(errno));

    if (regular && uint64_t(st.st_size) > maxFileBytes) throw Error(cannot + "it is larger than " + mib(maxFileBytes));
    std::string bytes;
    if (regular) bytes.reserve(size_t(st.st_size));
    char buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(f.fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw Error(cannot + std::strerror(errno));
        }
        if (n == 0) break;
        if (regular && bytes.size() + size_t(n) > maxFileBytes)  // it grew while read
            throw Error(cannot + "it is larger than " + mib(maxFileBytes));
        if (!regular && bytes.size() + size_t(n) > maxStreamBytes)
            throw Error(cannot + "it is a " + (S_ISFIFO(st.st_mode) ? "FIFO" : "device") + " that gives more than " +
                        mib(maxStreamBytes) + "; give a regular file");
        bytes.append(buf, size_t(n));
    }
    return bytes;
}

}  // namespace strata
