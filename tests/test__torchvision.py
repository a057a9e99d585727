"""brainpipe.models._torchvision.import_torchvision: torchvision imports and its model registry works."""

from brainpipe.models._torchvision import import_torchvision


def test_import_and_registry():
    torchvision = import_torchvision()
    assert import_torchvision() is torchvision  # idempotent
    assert "alexnet" in torchvision.models.list_models()
    assert callable(torchvision.models.get_model_builder("alexnet"))
    assert "IMAGENET1K_V1" in [w.name for w in torchvision.models.get_model_weights("alexnet")]
    from torchvision import transforms  # the transforms used by Brain-Score's preprocessing import too

    assert transforms.Resize((224, 224)).size == (224, 224)
