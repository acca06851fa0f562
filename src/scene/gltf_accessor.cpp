// scene/gltf_accessor.cpp — see gltf_accessor.h.
#include "scene/gltf_accessor.h"

#include <algorithm>
#include <cstring>

#include "core/error.h"

namespace strata {
namespace {

int componentBytes(int type) {
    switch (type) {
        case TINYGLTF_COMPONENT_TYPE_BYTE:
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return 1;
        case TINYGLTF_COMPONENT_TYPE_SHORT:
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return 2;
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
        case TINYGLTF_COMPONENT_TYPE_FLOAT: return 4;
        default: return 0;  // INT and DOUBLE are not glTF 2.0 accessor types
    }
}

int typeComponents(int type) {
    switch (type) {
        case TINYGLTF_TYPE_SCALAR: return 1;
        case TINYGLTF_TYPE_VEC2: return 2;
        case TINYGLTF_TYPE_VEC3: return 3;
        case TINYGLTF_TYPE_VEC4: return 4;
        case TINYGLTF_TYPE_MAT2: return 4;
        case TINYGLTF_TYPE_MAT3: return 9;
        case TINYGLTF_TYPE_MAT4: return 16;
        default: return 0;
    }
}

const char* typeName(int type) {
    switch (type) {
        case TINYGLTF_TYPE_SCALAR: return "SCALAR";
        case TINYGLTF_TYPE_VEC2: return "VEC2";
        case TINYGLTF_TYPE_VEC3: return "VEC3";
        case TINYGLTF_TYPE_VEC4: return "VEC4";
        case TINYGLTF_TYPE_MAT2: return "MAT2";
        case TINYGLTF_TYPE_MAT3: return "MAT3";
        case TINYGLTF_TYPE_MAT4: return "MAT4";
        default: return "an unknown type";
    }
}

// One component at `p` as a double, normalized where the accessor says so.
double component(const unsigned char* p, int type, bool normalized) {
    switch (type) {
        case TINYGLTF_COMPONENT_TYPE_BYTE: {
            int8_t v;
            std::memcpy(&v, p, 1);
            return normalized ? std::max(v / 127.0, -1.0) : v;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return normalized ? p[0] / 255.0 : p[0];
        case TINYGLTF_COMPONENT_TYPE_SHORT: {
            int16_t v;
            std::memcpy(&v, p, 2);
            return normalized ? std::max(v / 32767.0, -1.0) : v;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return normalized ? v / 65535.0 : v;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
            uint32_t v;
            std::memcpy(&v, p, 4);
            return normalized ? v / 4294967295.0 : v;
        }
        default: {
            float v;
            std::memcpy(&v, p, 4);
            return v;
        }
    }
}

// Elements in buffer view `view`, checked against the view and its buffer;
// `stride` is the view's byteStride or the element size. Components are read
// with memcpy, so offsets need no alignment.
struct ViewBytes {
    const unsigned char* data = nullptr;
    size_t stride = 0;
};

class Reader {
public:
    Reader(const std::string& file, const tinygltf::Model& model, const std::string& what)
        : file_(file), model_(model), what_(what) {}

    [[noreturn]] void fail(const std::string& where, const std::string& msg) const {
        throw Error(file_ + ": " + where + " (" + what_ + "): " + msg);
    }

    const tinygltf::Accessor& accessor(int index) const {
        if (index < 0 || size_t(index) >= model_.accessors.size())
            fail("accessor " + std::to_string(index),
                 "no such accessor (the file has " + std::to_string(model_.accessors.size()) + ")");
        return model_.accessors[size_t(index)];
    }

    // `count` elements of `elementBytes` each at `byteOffset` into view `view`.
    ViewBytes view(int view, size_t byteOffset, size_t count, size_t elementBytes, const std::string& where,
                   bool allowStride) const {
        if (view < 0 || size_t(view) >= model_.bufferViews.size())
            fail(where, "buffer view " + std::to_string(view) + " does not exist");
        const tinygltf::BufferView& bv = model_.bufferViews[size_t(view)];
        const std::string vw = "bufferViews[" + std::to_string(view) + "]";
        if (bv.buffer < 0 || size_t(bv.buffer) >= model_.buffers.size())
            fail(vw, "buffer " + std::to_string(bv.buffer) + " does not exist");
        const tinygltf::Buffer& buf = model_.buffers[size_t(bv.buffer)];
        if (bv.byteOffset > buf.data.size() || bv.byteLength > buf.data.size() - bv.byteOffset)
            fail(vw, "bytes " + std::to_string(bv.byteOffset) + " to " + std::to_string(bv.byteOffset + bv.byteLength) +
                         " lie beyond its buffer's " + std::to_string(buf.data.size()) + " bytes");
        size_t stride = elementBytes;
        if (allowStride && bv.byteStride != 0) {
            if (bv.byteStride < elementBytes || bv.byteStride > 252)
                fail(vw, "byteStride " + std::to_string(bv.byteStride) + " does not fit elements of " +
                             std::to_string(elementBytes) + " bytes");
            stride = bv.byteStride;
        }
        if (count > 0) {
            const size_t span = (count - 1) * stride + elementBytes;
            if (byteOffset > bv.byteLength || span > bv.byteLength - byteOffset || span / stride + 1 < count)
                fail(where, std::to_string(count) + " elements of " + std::to_string(elementBytes) +
                                " bytes from byte " + std::to_string(byteOffset) + " do not fit " + vw + " (" +
                                std::to_string(bv.byteLength) + " bytes)");
        }
        return {buf.data.data() + bv.byteOffset + byteOffset, stride};
    }

    // The accessor's values, its type checked, taken from the budget.
    template <typename T>
    std::vector<T> values(int index, int type, GltfBudget& budget) const {
        const tinygltf::Accessor& a = accessor(index);
        const std::string where = "accessors[" + std::to_string(index) + "]";
        if (a.type != type)
            fail(where, std::string("expected a ") + typeName(type) + " accessor, got " + typeName(a.type));
        const int n = typeComponents(a.type), cb = componentBytes(a.componentType);
        if (cb == 0) fail(where, "componentType " + std::to_string(a.componentType) + " is not a glTF 2.0 type");
        if (a.count > budget.values / size_t(n))
            fail(where, std::to_string(a.count) + " elements are beyond what strata reads from one file (" +
                            std::to_string(budget.values) + " more values)");
        budget.values -= a.count * size_t(n);
        std::vector<T> out(a.count * size_t(n), T(0));
        if (a.bufferView >= 0) {
            const ViewBytes vb = view(a.bufferView, a.byteOffset, a.count, size_t(n * cb), where, true);
            for (size_t e = 0; e < a.count; ++e)
                for (int c = 0; c < n; ++c)
                    out[e * size_t(n) + size_t(c)] =
                        T(component(vb.data + e * vb.stride + size_t(c * cb), a.componentType, a.normalized));
        }
        if (a.sparse.isSparse) applySparse(a, where, n, cb, out);
        return out;
    }

private:
    template <typename T>
    void applySparse(const tinygltf::Accessor& a, const std::string& where, int n, int cb, std::vector<T>& out) const {
        const std::string sw = where + ".sparse";
        if (a.sparse.count < 1 || size_t(a.sparse.count) > a.count)
            fail(sw, "count " + std::to_string(a.sparse.count) + " is not in [1, " + std::to_string(a.count) + "]");
        const size_t k = size_t(a.sparse.count);
        const int it = a.sparse.indices.componentType;
        if (it != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && it != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
            it != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
            fail(sw, "indices must be unsigned bytes, shorts or ints");
        if (a.sparse.indices.byteOffset < 0 || a.sparse.values.byteOffset < 0) fail(sw, "a negative byteOffset");
        const size_t ib = size_t(componentBytes(it));
        const ViewBytes idx =
            view(a.sparse.indices.bufferView, size_t(a.sparse.indices.byteOffset), k, ib, sw + ".indices", false);
        const ViewBytes val = view(a.sparse.values.bufferView, size_t(a.sparse.values.byteOffset), k, size_t(n * cb),
                                   sw + ".values", false);
        double previous = -1;
        for (size_t s = 0; s < k; ++s) {
            const double e = component(idx.data + s * ib, it, false);
            if (e >= double(a.count))
                fail(sw, "index " + std::to_string(size_t(e)) + " is beyond the accessor's count");
            if (e <= previous) fail(sw, "indices must strictly increase");
            previous = e;
            for (int c = 0; c < n; ++c)
                out[size_t(e) * size_t(n) + size_t(c)] =
                    T(component(val.data + s * val.stride + size_t(c * cb), a.componentType, a.normalized));
        }
    }

    const std::string& file_;
    const tinygltf::Model& model_;
    const std::string& what_;
};

}  // namespace

std::vector<float> readGltfFloats(const std::string& file, const tinygltf::Model& model, int accessor, int type,
                                  const std::string& what, GltfBudget& budget) {
    return Reader(file, model, what).values<float>(accessor, type, budget);
}

std::vector<uint32_t> readGltfUints(const std::string& file, const tinygltf::Model& model, int accessor, int type,
                                    const std::string& what, GltfBudget& budget) {
    Reader r(file, model, what);
    const tinygltf::Accessor& a = r.accessor(accessor);
    const int t = a.componentType;
    if (a.normalized || (t != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && t != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
                         t != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT))
        r.fail("accessors[" + std::to_string(accessor) + "]", "expected unsigned integers (not normalized)");
    return r.values<uint32_t>(accessor, type, budget);
}

}  // namespace strata
