"""A user's recurrent network (test fixture): its forward unrolls `times` steps and calls `IT.output` each step."""

import torch
from torch import nn


class Cell(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.feed = nn.Conv2d(channels, channels, 3, padding=1)
        self.lateral = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.output = nn.Identity()

    def forward(self, x, h):
        return self.output(torch.tanh(self.feed(x) + 0.9 * self.lateral(h)))


class Recurrent(nn.Module):
    def __init__(self, times=3, channels=8):
        super().__init__()
        self.times = times
        self.V1 = nn.Sequential(nn.Conv2d(3, channels, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.IT = Cell(channels)

    def forward(self, images):
        x = self.V1(images)
        h = torch.zeros_like(x)
        for _ in range(self.times):
            h = self.IT(x, h)
        return h.flatten(1)


def build():
    torch.manual_seed(0)
    return Recurrent()
