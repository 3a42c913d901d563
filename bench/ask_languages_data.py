"""Twelve proposals and a question about each, written in English, Spanish, Russian and
Brazilian Portuguese (each a translation of the same text), for bench/ask_languages.py.

The questions name their topic in other words than the proposal where a speaker would
("bikes" for "bicycle racks"), so meaning matters, not only shared words.
"""

from __future__ import annotations

# topic: {language: (proposal title, description, question)}
TOPICS: dict[str, dict[str, tuple[str, str, str]]] = {
    "bikes": {
        "en": (
            "Bicycle racks at the entrance",
            "Install racks so residents can lock their bicycles safely.",
            "where can I leave my bike?",
        ),
        "es": (
            "Aparcabicicletas en la entrada",
            "Instalar soportes para que los vecinos aten sus bicicletas con seguridad.",
            "¿dónde puedo dejar mi bici?",
        ),
        "ru": (
            "Велопарковка у входа",
            "Установить стойки, чтобы жильцы могли безопасно пристегнуть велосипеды.",
            "где можно оставить велосипед?",
        ),
        "pt_BR": (
            "Bicicletário na entrada",
            "Instalar suportes para os moradores prenderem as bicicletas com segurança.",
            "onde posso deixar minha bike?",
        ),
    },
    "pizza": {
        "en": (
            "Friday pizza party",
            "Order pizza for everyone on Friday evening in the common room.",
            "is there a party with food on Friday?",
        ),
        "es": (
            "Fiesta de pizza el viernes",
            "Pedir pizza para todos el viernes por la tarde en la sala común.",
            "¿hay una fiesta con comida el viernes?",
        ),
        "ru": (
            "Пицца-вечеринка в пятницу",
            "Заказать пиццу для всех в пятницу вечером в общей комнате.",
            "будет ли вечеринка с едой в пятницу?",
        ),
        "pt_BR": (
            "Festa da pizza na sexta",
            "Pedir pizza para todos na sexta à noite no salão comum.",
            "vai ter festa com comida na sexta?",
        ),
    },
    "garden": {
        "en": (
            "Rooftop vegetable garden",
            "Grow tomatoes and herbs in planters on the roof.",
            "can we plant vegetables somewhere?",
        ),
        "es": (
            "Huerto en la azotea",
            "Cultivar tomates y hierbas en jardineras en la azotea.",
            "¿podemos plantar verduras en algún sitio?",
        ),
        "ru": (
            "Огород на крыше",
            "Выращивать помидоры и зелень в ящиках на крыше.",
            "можно ли где-нибудь посадить овощи?",
        ),
        "pt_BR": (
            "Horta no terraço",
            "Cultivar tomates e ervas em floreiras no terraço.",
            "podemos plantar legumes em algum lugar?",
        ),
    },
    "parking": {
        "en": (
            "New car parking rules",
            "Each flat gets one parking space; guests park on the street.",
            "how many cars can I park?",
        ),
        "es": (
            "Nuevas normas de aparcamiento",
            "Cada piso tiene una plaza de aparcamiento; los invitados aparcan en la calle.",
            "¿cuántos coches puedo aparcar?",
        ),
        "ru": (
            "Новые правила парковки",
            "Каждой квартире одно парковочное место; гости паркуются на улице.",
            "сколько машин я могу поставить?",
        ),
        "pt_BR": (
            "Novas regras de estacionamento",
            "Cada apartamento tem uma vaga; visitantes estacionam na rua.",
            "quantos carros posso estacionar?",
        ),
    },
    "library": {
        "en": (
            "Book exchange shelf",
            "Put a shelf in the lobby where neighbours swap books.",
            "where can I swap novels with neighbours?",
        ),
        "es": (
            "Estantería de intercambio de libros",
            "Poner una estantería en el vestíbulo para que los vecinos intercambien libros.",
            "¿dónde puedo cambiar novelas con los vecinos?",
        ),
        "ru": (
            "Полка для обмена книгами",
            "Поставить в холле полку, где соседи обмениваются книгами.",
            "где можно обменяться романами с соседями?",
        ),
        "pt_BR": (
            "Estante de troca de livros",
            "Colocar uma estante no saguão para os vizinhos trocarem livros.",
            "onde posso trocar romances com os vizinhos?",
        ),
    },
    "solar": {
        "en": (
            "Solar panels on the roof",
            "Install solar panels to cut the building's electricity bill.",
            "how can we lower the power bill?",
        ),
        "es": (
            "Paneles solares en el tejado",
            "Instalar paneles solares para reducir la factura de electricidad del edificio.",
            "¿cómo podemos bajar la factura de la luz?",
        ),
        "ru": (
            "Солнечные панели на крыше",
            "Установить солнечные панели, чтобы снизить счета за электричество.",
            "как нам уменьшить счёт за свет?",
        ),
        "pt_BR": (
            "Painéis solares no telhado",
            "Instalar painéis solares para reduzir a conta de luz do prédio.",
            "como podemos baixar a conta de energia?",
        ),
    },
    "pets": {
        "en": (
            "Dog walking area",
            "Fence a corner of the yard where dogs can run off the lead.",
            "where can my puppy run free?",
        ),
        "es": (
            "Zona para pasear perros",
            "Vallar una esquina del patio donde los perros puedan correr sueltos.",
            "¿dónde puede correr libre mi cachorro?",
        ),
        "ru": (
            "Площадка для выгула собак",
            "Огородить угол двора, где собаки могут бегать без поводка.",
            "где мой щенок может побегать на свободе?",
        ),
        "pt_BR": (
            "Área para passear cães",
            "Cercar um canto do pátio onde os cães possam correr soltos.",
            "onde meu filhote pode correr livre?",
        ),
    },
    "noise": {
        "en": (
            "Quiet hours after 10 pm",
            "No loud music or drilling between 10 pm and 7 am.",
            "until what time can I play loud music?",
        ),
        "es": (
            "Horario de silencio desde las 22",
            "Nada de música alta ni taladros entre las 22 y las 7.",
            "¿hasta qué hora puedo poner música alta?",
        ),
        "ru": (
            "Тихие часы после 22:00",
            "Никакой громкой музыки и дрели с 22 до 7 утра.",
            "до какого времени можно громко слушать музыку?",
        ),
        "pt_BR": (
            "Horário de silêncio após as 22h",
            "Sem música alta nem furadeira entre 22h e 7h.",
            "até que horas posso ouvir música alta?",
        ),
    },
    "laundry": {
        "en": (
            "Second washing machine",
            "Buy another washing machine for the shared laundry room.",
            "the laundry queue is too long, any plan?",
        ),
        "es": (
            "Segunda lavadora",
            "Comprar otra lavadora para la lavandería común.",
            "hay mucha cola para lavar la ropa, ¿algún plan?",
        ),
        "ru": (
            "Вторая стиральная машина",
            "Купить ещё одну стиральную машину в общую прачечную.",
            "слишком длинная очередь на стирку, есть план?",
        ),
        "pt_BR": (
            "Segunda máquina de lavar",
            "Comprar outra máquina de lavar para a lavanderia comum.",
            "a fila para lavar roupa está longa, algum plano?",
        ),
    },
    "security": {
        "en": (
            "Cameras in the hallway",
            "Put security cameras in the hallways after two break-ins.",
            "what are we doing about the burglaries?",
        ),
        "es": (
            "Cámaras en el pasillo",
            "Poner cámaras de seguridad en los pasillos tras dos robos.",
            "¿qué hacemos con los robos?",
        ),
        "ru": (
            "Камеры в коридоре",
            "Поставить камеры видеонаблюдения в коридорах после двух краж.",
            "что мы делаем с кражами?",
        ),
        "pt_BR": (
            "Câmeras no corredor",
            "Colocar câmeras de segurança nos corredores depois de dois furtos.",
            "o que estamos fazendo sobre os furtos?",
        ),
    },
    "kids": {
        "en": (
            "Playground renovation",
            "Replace the old swings and slide in the children's playground.",
            "are the kids getting new swings?",
        ),
        "es": (
            "Renovación del parque infantil",
            "Cambiar los columpios y el tobogán viejos del parque infantil.",
            "¿los niños tendrán columpios nuevos?",
        ),
        "ru": (
            "Ремонт детской площадки",
            "Заменить старые качели и горку на детской площадке.",
            "будут ли у детей новые качели?",
        ),
        "pt_BR": (
            "Reforma do parquinho",
            "Trocar os balanços e o escorregador velhos do parquinho.",
            "as crianças vão ganhar balanços novos?",
        ),
    },
    "recycling": {
        "en": (
            "Recycling bins for glass",
            "Add separate bins for glass and plastic in the yard.",
            "where do empty bottles go?",
        ),
        "es": (
            "Contenedores de reciclaje para vidrio",
            "Añadir contenedores separados para vidrio y plástico en el patio.",
            "¿dónde van las botellas vacías?",
        ),
        "ru": (
            "Контейнеры для стекла",
            "Поставить во дворе отдельные контейнеры для стекла и пластика.",
            "куда выбрасывать пустые бутылки?",
        ),
        "pt_BR": (
            "Lixeiras de reciclagem para vidro",
            "Colocar lixeiras separadas para vidro e plástico no pátio.",
            "onde vão as garrafas vazias?",
        ),
    },
}

LANGUAGES = ("en", "es", "ru", "pt_BR")
