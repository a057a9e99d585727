"""A user's model file, shared by the model-source tests."""

import textwrap


# A user's model file: a small conv net and a BrainModel that is not a torch network.
USER_MODEL = textwrap.dedent('''
    import numpy as np
    import torch
    from PIL import Image


    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.features = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 5, stride=4), torch.nn.ReLU(),
                                                torch.nn.AdaptiveAvgPool2d(2))
            self.head = torch.nn.Linear(16, 3)

        def forward(self, x):
            return self.head(self.features(x).flatten(1))


    def build():
        return Net()


    def not_a_module():
        return {"weights": 1}


    class MeanColour:
        """Brain-Score's interface; 'IT' is the mean RGB of each image quadrant, 'V4' of the whole image."""
        regions = ("V4", "IT")

        def __init__(self):
            self.region = None

        def visual_degrees(self):
            return 8

        def start_recording(self, region, time_bins):
            self.region = region

        def look_at(self, stimuli, number_of_trials=1):
            rows = []
            for path in stimuli:
                image = np.asarray(Image.open(path).convert("RGB"), dtype=np.float64) / 255
                h, w = image.shape[0] // 2, image.shape[1] // 2
                if self.region == "V4":
                    rows.append(image.mean(axis=(0, 1)))
                else:
                    rows.append(np.concatenate([image[:h, :w].mean((0, 1)), image[:h, w:].mean((0, 1)),
                                                image[h:, :w].mean((0, 1)), image[h:, w:].mean((0, 1))]))
            return np.array(rows)[:, :, None]  # (presentation, neuroid, time_bin)


    def make_brain_model():
        return MeanColour()
''')


# A user's model file whose network fails on every image: a job that fails for one model of a grid.
BROKEN_MODEL = '''
import torch


class Boom(torch.nn.Module):
    def forward(self, x):
        raise RuntimeError("this test model fails on every image")


def build():
    return torch.nn.Sequential(Boom(), torch.nn.Conv2d(3, 4, 7, stride=4), torch.nn.Flatten())
'''
