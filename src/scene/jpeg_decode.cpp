// scene/jpeg_decode.cpp — see jpeg_decode.h. libjpeg reports errors by
// calling error_exit, which must not return: it longjmps back to run(), whose
// frames hold only plain data (no destructors are skipped).
#include "scene/jpeg_decode.h"

#include <csetjmp>
#include <cstdio>
#include <cstdlib>

#include <jpeglib.h>
#include <jerror.h>

#include "core/error.h"

namespace strata {
namespace {

struct Job {  // plain data only: it lives across setjmp/longjmp
    const unsigned char* data;
    unsigned long size;
    bool pixels;  // false: the header only
    int width, height;
    unsigned char* rgb;  // malloc'ed, width * height * 3
    char message[JMSG_LENGTH_MAX];
};

struct ErrorManager {
    jpeg_error_mgr pub;  // first: libjpeg sees only this
    std::jmp_buf jump;
    Job* job;
};

[[noreturn]] void fail(j_common_ptr c) {
    auto* e = reinterpret_cast<ErrorManager*>(c->err);
    (*c->err->format_message)(c, e->job->message);
    std::longjmp(e->jump, 1);
}

// Warnings (level -1) that mean the pixel data is damaged stop the decode;
// the rest (bytes between segments, unknown metadata) are ignored.
void onMessage(j_common_ptr c, int level) {
    if (level >= 0) return;  // trace messages
    switch (c->err->msg_code) {
        case JWRN_ARITH_BAD_CODE:
        case JWRN_BOGUS_PROGRESSION:
        case JWRN_HIT_MARKER:
        case JWRN_HUFF_BAD_CODE:
        case JWRN_JPEG_EOF:
        case JWRN_MUST_RESYNC:
        case JWRN_NOT_SEQUENTIAL:
        case JWRN_TOO_MUCH_DATA: fail(c);
        default: return;
    }
}

bool run(Job* job) {
    jpeg_decompress_struct cinfo;
    ErrorManager err;
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = fail;
    err.pub.emit_message = onMessage;
    err.job = job;
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        std::free(job->rgb);
        job->rgb = nullptr;
        return false;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, job->data, job->size);
    jpeg_read_header(&cinfo, TRUE);
    job->width = int(cinfo.image_width);
    job->height = int(cinfo.image_height);
    if (job->pixels) {
        cinfo.out_color_space = JCS_RGB;
        jpeg_start_decompress(&cinfo);
        const size_t row = size_t(cinfo.output_width) * 3;
        job->width = int(cinfo.output_width);
        job->height = int(cinfo.output_height);
        job->rgb = static_cast<unsigned char*>(std::malloc(row * cinfo.output_height));
        if (!job->rgb) ERREXIT1(&cinfo, JERR_OUT_OF_MEMORY, 0);
        while (cinfo.output_scanline < cinfo.output_height) {
            JSAMPROW p = job->rgb + row * cinfo.output_scanline;
            jpeg_read_scanlines(&cinfo, &p, 1);
        }
        jpeg_finish_decompress(&cinfo);
    }
    jpeg_destroy_decompress(&cinfo);
    return true;
}

JpegImage decode(const std::string& path, const std::string& bytes, bool pixels) {
    Job job{
        reinterpret_cast<const unsigned char*>(bytes.data()), (unsigned long)bytes.size(), pixels, 0, 0, nullptr, {}};
    if (!run(&job)) throw Error(path + ": cannot read JPEG: " + job.message);
    JpegImage out;
    out.width = job.width;
    out.height = job.height;
    if (job.rgb) {
        out.rgb.assign(job.rgb, job.rgb + size_t(job.width) * size_t(job.height) * 3);
        std::free(job.rgb);
    }
    return out;
}

}  // namespace

bool looksLikeJpeg(const std::string& b) {
    return b.size() >= 3 && (unsigned char)b[0] == 0xFF && (unsigned char)b[1] == 0xD8 && (unsigned char)b[2] == 0xFF;
}

JpegImage jpegHeader(const std::string& path, const std::string& bytes) { return decode(path, bytes, false); }

JpegImage decodeJpeg(const std::string& path, const std::string& bytes) { return decode(path, bytes, true); }

}  // namespace strata
