// core/input_file.h: regular files, FIFOs and devices read whole or refused
// with one message naming the file; nothing hangs, nothing grows without end.
#include <sys/stat.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>

#include "core/error.h"
#include "core/input_file.h"
#include "loader_test_util.h"

using namespace strata;
using namespace strata::test;

namespace {

std::string readError(const std::string& path, size_t limit = 1 << 20, int waitMs = 200) {
    try {
        readInputFile(path, "test file", limit, SIZE_MAX, waitMs);
    } catch (const Error& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST(InputFile, RegularFilesAreReadWhole) {
    TempDir dir;
    std::string text(200000, 'x');
    text += "end";
    const std::string path = dir.write("a.txt", text);
    EXPECT_EQ(readInputFile(path, "test file", 16), text);  // the stream limit is not a size limit
    EXPECT_EQ(readInputFile(dir.write("empty.txt", ""), "test file", 16), "");
    // A size limit for regular files is checked from the size, before reading.
    try {
        readInputFile(path, "test file", 16, 1 << 16);
        ADD_FAILURE() << "a 200 KB file passed a 64 KiB limit";
    } catch (const Error& e) {
        EXPECT_CONTAINS(e.what(), path + ": cannot read test file: it is larger than 65536 bytes");
    }
}

// The in-memory stream reads the text and seeks within it, as the PFM reader needs.
TEST(InputFile, TextStreamBufReadsAndSeeks) {
    const std::string text = "PF 2 1 -1.0\nabcdefgh";
    TextStreamBuf buf(text);
    std::istream in(&buf);
    std::string magic;
    int w = 0, h = 0;
    double scale = 0;
    ASSERT_TRUE(in >> magic >> w >> h >> scale);
    in.get();
    EXPECT_EQ(int(in.tellg()), 12);
    in.seekg(0, std::ios::end);
    EXPECT_EQ(int(in.tellg()), int(text.size()));
    in.seekg(12);
    EXPECT_EQ(char(in.get()), 'a');
}

TEST(InputFile, MissingFilesAndDirectoriesAreNamed) {
    TempDir dir;
    EXPECT_CONTAINS(readError(dir.file("nope.txt")), dir.file("nope.txt") + ": cannot open test file: No such file");
    EXPECT_CONTAINS(readError(dir.path().string()), ": cannot open test file: it is a directory");
    EXPECT_CONTAINS(readError(""), "cannot open test file: the file name is empty");
}

TEST(InputFile, EndlessDevicesStopAtTheLimit) {
    EXPECT_CONTAINS(readError("/dev/zero", 1 << 20),
                    "/dev/zero: cannot read test file: it is a device that gives more than 1 MiB; give a regular file");
    EXPECT_EQ(readInputFile("/dev/null", "test file", 16), "");
}

TEST(InputFile, FifosAreReadOnceOrRefusedWhenSilent) {
    TempDir dir;
    const std::string fifo = dir.file("pipe");
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    // Nothing writes: refused after the wait, not a hang.
    EXPECT_CONTAINS(readError(fifo),
                    "cannot read test file: it is a FIFO that gave no data within 200 ms of being opened");
    // A writer that comes late and writes in pieces.
    std::thread writer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        std::ofstream out(fifo);
        for (int i = 0; i < 1000; ++i) out << "line " << i << "\n";
    });
    std::string got;
    try {
        got = readInputFile(fifo, "test file", 1 << 20, SIZE_MAX, 5000);
    } catch (const Error& e) {
        ADD_FAILURE() << e.what();
    }
    writer.join();
    EXPECT_EQ(got.substr(0, 7), "line 0\n");
    EXPECT_NE(got.find("line 999\n"), std::string::npos);
    // More than the limit through a FIFO (the writer then meets a closed
    // pipe: EPIPE instead of the signal that would end the test).
    std::signal(SIGPIPE, SIG_IGN);
    std::thread flood([&] {
        std::ofstream out(fifo);
        std::string chunk(1 << 16, 'y');
        for (int i = 0; i < 64 && out; ++i) out << chunk;
    });
    EXPECT_CONTAINS(readError(fifo, 1 << 20, 5000), "it is a FIFO that gives more than 1 MiB");
    flood.join();
}
