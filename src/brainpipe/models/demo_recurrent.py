"""A small recurrent network for the offline temporal demo: seeded, untrained, unrolled over ``times`` steps.

``V1`` (a convolution and pooling) runs once; ``IT`` is a recurrent block whose state is updated ``times`` times,
h(t+1) = ReLU(conv_in(x) + conv_rec(h(t)) + b), and its ``IT.output`` module (an identity) is called once per step,
so a hook on it records one response per step, as on CORnet-S's ``IT.output``. With ``time_mapping: {IT: [70, 45,
4]}`` its four steps answer 70-115, 115-160, 160-205 and 205-250 ms. Architecture ``brainpipe.models.demo_recurrent:
build``.
"""

from __future__ import annotations


def build(times: int = 4, channels: int = 8):
    import torch
    from torch import nn

    class RecurrentBlock(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv_in = nn.Conv2d(channels, channels, 3, padding=1)
            self.conv_rec = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
            self.output = nn.Identity()  # called once per step: the per-step hook point

        def forward(self, x, state):
            return self.output(torch.relu(self.conv_in(x) + self.conv_rec(state)))

    class DemoRecurrent(nn.Module):
        def __init__(self):
            super().__init__()
            self.times = times
            self.V1 = nn.Sequential(nn.Conv2d(3, channels, 5, stride=2, padding=2), nn.ReLU(),
                                    nn.AdaptiveAvgPool2d(4))
            self.IT = RecurrentBlock()

        def forward(self, images):
            x = self.V1(images)
            state = torch.zeros_like(x)
            for _ in range(self.times):  # unrolled in time: IT.output fires once per step
                state = self.IT(x, state)
            return state.flatten(1)

    return DemoRecurrent()
