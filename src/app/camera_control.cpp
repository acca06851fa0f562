#include "app/camera_control.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>

namespace strata {

Vec3 CameraControl::forwardDir() const {
    return {std::cos(pitch_) * std::sin(yaw_), std::sin(pitch_), -std::cos(pitch_) * std::cos(yaw_)};
}

void CameraControl::setPose(const CameraPose& p) {
    position_ = p.position;
    Vec3 f = normalize(p.target - p.position);
    if (!isFinite(f) || length(f) < 0.5f) f = {0, 0, -1};
    pitch_ = std::asin(clampf(f.y, -1.0f, 1.0f));
    yaw_ = std::atan2(f.x, -f.z);
    fov_ = p.fovYDegrees;
    orbitDistance_ = std::max(1e-3f, length(p.target - p.position));
}

void CameraControl::reset(const CameraPose& pose, float sceneSize) {
    sceneSize_ = std::max(sceneSize, 1e-3f);
    speed_ = 0.25f * sceneSize_;  // scene widths per second
    setPose(pose);
}

bool CameraControl::update(const CameraInput& in, float dt) {
    bool moved = false;
    dt = std::min(dt, 0.1f);
    if (in.scroll != 0) speed_ = clampf(speed_ * std::pow(1.2f, float(in.scroll)), 1e-4f * sceneSize_, 10 * sceneSize_);
    float v = speed_ * dt * (in.fast ? 4.0f : 1.0f) * (in.slow ? 0.25f : 1.0f);
    Vec3 f = forwardDir();
    Vec3 r = normalize(cross(f, Vec3{0, 1, 0}));
    Vec3 d{};
    if (in.forward) d += f;
    if (in.back) d -= f;
    if (in.right) d += r;
    if (in.left) d -= r;
    if (in.up) d += Vec3{0, 1, 0};
    if (in.down) d -= Vec3{0, 1, 0};
    if (length(d) > 0) {
        position_ += normalize(d) * v;
        moved = true;
    }
    const float lookRate = 1.5f * dt;  // radians per second with the arrows
    float dyaw = 0, dpitch = 0;
    if (in.lookLeft) dyaw -= lookRate;
    if (in.lookRight) dyaw += lookRate;
    if (in.lookUp) dpitch += lookRate;
    if (in.lookDown) dpitch -= lookRate;
    if (in.lookDrag || in.orbitDrag) {
        dyaw += float(in.mouseDx) * 0.004f;
        dpitch -= float(in.mouseDy) * 0.004f;
    }
    if (dyaw != 0 || dpitch != 0) {
        Vec3 target = position_ + forwardDir() * orbitDistance_;
        yaw_ += dyaw;
        pitch_ = clampf(pitch_ + dpitch, -1.55f, 1.55f);
        if (in.orbitDrag) position_ = target - forwardDir() * orbitDistance_;  // orbit the target
        moved = true;
    }
    return moved;
}

CameraPose CameraControl::pose() const {
    return CameraPose{position_, position_ + forwardDir() * orbitDistance_, Vec3{0, 1, 0}, fov_};
}

CameraInput readCameraInput(GLFWwindow* w, const KeyBindings& keys, bool imguiKeyboard, bool imguiMouse, double& lastX,
                            double& lastY, double scroll) {
    CameraInput in;
    auto key = [&](int k) { return !imguiKeyboard && glfwGetKey(w, k) == GLFW_PRESS; };
    auto bound = [&](KeyAction a) { return key(keys.key(a)); };
    in.forward = bound(KeyAction::Forward);
    in.back = bound(KeyAction::Back);
    in.left = bound(KeyAction::Left);
    in.right = bound(KeyAction::Right);
    in.down = bound(KeyAction::Down);
    in.up = bound(KeyAction::Up);
    in.lookLeft = bound(KeyAction::LookLeft);
    in.lookRight = bound(KeyAction::LookRight);
    in.lookUp = bound(KeyAction::LookUp);
    in.lookDown = bound(KeyAction::LookDown);
    in.fast = key(GLFW_KEY_LEFT_SHIFT) || key(GLFW_KEY_RIGHT_SHIFT);
    in.slow = key(GLFW_KEY_LEFT_CONTROL) || key(GLFW_KEY_RIGHT_CONTROL);
    double x, y;
    glfwGetCursorPos(w, &x, &y);
    if (!imguiMouse) {
        bool alt = glfwGetKey(w, GLFW_KEY_LEFT_ALT) == GLFW_PRESS || glfwGetKey(w, GLFW_KEY_RIGHT_ALT) == GLFW_PRESS;
        in.lookDrag = glfwGetMouseButton(w, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
        in.orbitDrag = glfwGetMouseButton(w, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS ||
                       (alt && glfwGetMouseButton(w, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS);
        in.mouseDx = x - lastX;
        in.mouseDy = y - lastY;
        in.scroll = scroll;
    }
    lastX = x;
    lastY = y;
    return in;
}

}  // namespace strata
