// render/bsdf.h — the materials: Lambertian diffuse, GGX conductor (Walter et
// al. 2007, Schlick Fresnel on a coloured F0), smooth dielectric, emitter.
// Directions point away from the surface; results are f * |cos(wi, n)|.
#pragma once

#include "render/sampling.h"
#include "scene/scene.h"

namespace strata {

struct BsdfSample {
    Vec3 wi;
    Vec3 weight;    // f * cos / pdf
    float pdf = 0;  // 0 for delta lobes
    bool delta = false;
};

STRATA_HD float ggxAlpha(float roughness) { return fmaxf(roughness * roughness, 1e-3f); }

STRATA_HD float ggxD(float cosH, float a2) {
    float d = cosH * cosH * (a2 - 1.0f) + 1.0f;
    return a2 / (kPi * d * d);
}

STRATA_HD float smithG1(float cosV, float a2) { return 2.0f * cosV / (cosV + sqrtf(a2 + (1.0f - a2) * cosV * cosV)); }

STRATA_HD Vec3 schlick(Vec3 f0, float cosTheta) {
    float m = 1.0f - clampf(cosTheta, 0.0f, 1.0f);
    float m5 = m * m * m * m * m;
    return f0 + (make3(1.0f) - f0) * m5;
}

STRATA_HD float fresnelDielectric(float cosI, float eta) {  // eta = n_i / n_t
    float sin2T = eta * eta * fmaxf(0.0f, 1.0f - cosI * cosI);
    if (sin2T >= 1.0f) return 1.0f;
    float cosT = sqrtf(1.0f - sin2T);
    float rs = (eta * cosI - cosT) / (eta * cosI + cosT);
    float rp = (cosI - eta * cosT) / (cosI + eta * cosT);
    return 0.5f * (rs * rs + rp * rp);
}

STRATA_HD Vec3 reflect(Vec3 v, Vec3 n) { return 2.0f * dot(v, n) * n - v; }

STRATA_HD bool isDeltaMaterial(const Material& m) { return m.type == MaterialType::Dielectric; }

// f * cos and the sampling pdf of wi, for non-delta materials. n is the
// shading normal on wo's side.
STRATA_HD Vec3 evalBsdf(const Material& m, Vec3 albedo, Vec3 n, Vec3 wo, Vec3 wi, float& pdf) {
    pdf = 0.0f;
    float cosI = dot(n, wi), cosO = dot(n, wo);
    if (cosI <= 0.0f || cosO <= 0.0f) return make3(0.0f);
    if (m.type == MaterialType::Diffuse) {
        pdf = cosI * kInvPi;
        return albedo * (cosI * kInvPi);
    }
    if (m.type == MaterialType::Conductor) {
        float a2 = ggxAlpha(m.roughness);
        a2 *= a2;
        Vec3 h = normalize(wo + wi);
        float cosH = dot(n, h), woH = fmaxf(dot(wo, h), 1e-7f);
        float D = ggxD(cosH, a2);
        pdf = D * cosH / (4.0f * woH);
        float G = smithG1(cosO, a2) * smithG1(cosI, a2);
        return schlick(albedo, woH) * (D * G / (4.0f * cosO));
    }
    return make3(0.0f);
}

STRATA_HD bool sampleBsdf(const Material& m, Vec3 albedo, Vec3 n, Vec3 ng, Vec3 wo, float u1, float u2, float u3,
                          BsdfSample& s) {
    if (m.type == MaterialType::Diffuse) {
        Vec3 t, b;
        makeBasis(n, t, b);
        Vec3 l = sampleCosineHemisphere(u1, u2);
        s.wi = normalize(t * l.x + b * l.y + n * l.z);
        s.pdf = l.z * kInvPi;
        s.weight = albedo;
        s.delta = false;
        return s.pdf > 0.0f && dot(s.wi, ng) * dot(wo, ng) > 0.0f;
    }
    if (m.type == MaterialType::Conductor) {
        float alpha = ggxAlpha(m.roughness), a2 = alpha * alpha;
        float cos2H = (1.0f - u1) / (1.0f + (a2 - 1.0f) * u1);
        float cosH = sqrtf(fmaxf(cos2H, 0.0f)), sinH = sqrtf(fmaxf(0.0f, 1.0f - cos2H));
        float phi = 2.0f * kPi * u2;
        Vec3 t, b;
        makeBasis(n, t, b);
        Vec3 h = normalize(t * (sinH * cosf(phi)) + b * (sinH * sinf(phi)) + n * cosH);
        s.wi = reflect(wo, h);
        float pdf;
        Vec3 fc = evalBsdf(m, albedo, n, wo, s.wi, pdf);
        if (pdf <= 0.0f || dot(s.wi, ng) * dot(wo, ng) <= 0.0f) return false;
        s.pdf = pdf;
        s.weight = fc / pdf;
        s.delta = false;
        return true;
    }
    if (m.type == MaterialType::Dielectric) {
        // n faces wo; ng tells whether we are entering the medium.
        bool entering = dot(wo, ng) > 0.0f;
        float eta = entering ? 1.0f / m.ior : m.ior;
        float cosI = dot(n, wo);
        float F = fresnelDielectric(fabsf(cosI), eta);
        s.delta = true;
        s.pdf = 0.0f;
        if (u3 < F) {
            s.wi = reflect(wo, n);
            s.weight = make3(1.0f);
        } else {
            float sin2T = eta * eta * fmaxf(0.0f, 1.0f - cosI * cosI);
            float cosT = sqrtf(fmaxf(0.0f, 1.0f - sin2T));
            s.wi = normalize(-wo * eta + n * (eta * cosI - cosT));
            s.weight = albedo;
        }
        return true;
    }
    return false;  // emitters do not scatter
}

}  // namespace strata
