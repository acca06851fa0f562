// app/camera_control.h — the viewer's fly camera (WASD, Q/E, right-drag or
// arrows to look, Shift faster, Ctrl slower, scroll for speed) and orbit
// mode (Alt + left drag or middle drag around the target). Speeds scale with
// the scene's size and the frame time.
#pragma once

#include "app/key_bindings.h"
#include "scene/keyframes.h"

struct GLFWwindow;

namespace strata {

struct CameraInput {
    bool forward = false, back = false, left = false, right = false, up = false, down = false;
    bool lookLeft = false, lookRight = false, lookUp = false, lookDown = false;
    bool fast = false, slow = false;
    bool lookDrag = false, orbitDrag = false;
    double mouseDx = 0, mouseDy = 0, scroll = 0;
};

class CameraControl {
public:
    void reset(const CameraPose& pose, float sceneSize);
    // Returns true when the camera moved.
    bool update(const CameraInput& in, float dt);
    CameraPose pose() const;
    float speed() const { return speed_; }
    float& fov() { return fov_; }
    void setPose(const CameraPose& p);

private:
    Vec3 forwardDir() const;
    Vec3 position_{0, 1, 5};
    float yaw_ = 0, pitch_ = 0, fov_ = 50;
    float speed_ = 1, sceneSize_ = 1, orbitDistance_ = 5;
};

// Reads the keyboard and mouse (ignored while ImGui wants them).
CameraInput readCameraInput(GLFWwindow* w, const KeyBindings& keys, bool imguiKeyboard, bool imguiMouse, double& lastX,
                            double& lastY, double scroll);

}  // namespace strata
